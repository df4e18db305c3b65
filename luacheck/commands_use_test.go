package luacheck

import "testing"

// TestCommandUse: the commands a script runs say whether it may touch a
// key, per registered function, so a caller can tell a script that only
// computes from one that reads data.
func TestCommandUse(t *testing.T) {
	cases := []struct {
		name, src string
		fn        string
		function  bool
		want      CommandUse
	}{
		{name: "no command", src: `return ARGV[1]`},
		{name: "keyless command", src: `return redis.call('TIME')`, want: CommandUse{Calls: 1}},
		{name: "publish", src: `return redis.call('PUBLISH', ARGV[1], ARGV[2])`, want: CommandUse{Calls: 1}},
		{name: "key from ARGV", src: `return redis.call('GET', ARGV[1])`, want: CommandUse{Calls: 1, MayKeys: true}},
		{name: "pcall", src: `return redis.pcall('DEL', KEYS[1])`, want: CommandUse{Calls: 1, MayKeys: true}},
		{name: "unknown name", src: `return redis.call(ARGV[1], ARGV[2])`, want: CommandUse{Calls: 1, MayKeys: true}},
		{name: "unknown command", src: `return redis.call('NOSUCHCMD', ARGV[1])`, want: CommandUse{Calls: 1, MayKeys: true}},
		{name: "spread", src: `return redis.call('PING', unpack(ARGV))`, want: CommandUse{Calls: 1, MayKeys: true}},
		{name: "alias", src: `local f = redis.call return f('GET', ARGV[1])`, want: CommandUse{Calls: 1, MayKeys: true}},
		{
			name: "library, returning function", function: true, fn: "ping",
			src: "#!lua name=l\nredis.register_function('ping', function(keys, args) return args[1] end)\n" +
				"redis.register_function('peek', function(keys, args) return redis.call('GET', args[1]) end)\n",
		},
		{
			name: "library, reading function", function: true, fn: "peek",
			src: "#!lua name=l\nredis.register_function('ping', function(keys, args) return args[1] end)\n" +
				"redis.register_function('peek', function(keys, args) return redis.call('GET', args[1]) end)\n",
			want: CommandUse{Calls: 1, MayKeys: true},
		},
	}
	for _, c := range cases {
		r := Analyze([]byte(c.src), Options{Function: c.function})
		if !r.Checked {
			t.Errorf("%s: not checked: %v", c.name, r.Findings)
			continue
		}
		if got := r.Commands[c.fn]; got != c.want {
			t.Errorf("%s: Commands[%q] = %+v, want %+v", c.name, c.fn, got, c.want)
		}
	}
}
