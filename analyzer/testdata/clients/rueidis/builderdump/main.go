// Command builderdump builds commands with every method chain of the
// rueidis command builder, one chain through each builder type, and prints
// each command's argv as JSON lines, with the builder method (and its
// argument) each word comes from. slotlint's test compares the words its
// front end takes as keys with the keys Redis's key specs locate.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"

	"github.com/redis/rueidis"
)

// Word is one word of a built command: its text, and the builder method
// and argument it came from ("" for words the builder adds itself).
type Word struct {
	Text     string `json:"text"`
	Recv     string `json:"recv,omitempty"`
	Method   string `json:"method,omitempty"`
	Arg      int    `json:"arg"`
	Variadic bool   `json:"variadic,omitempty"`
	StrParam bool   `json:"strParam,omitempty"`
}

// Command is one built command, by the builder method that started it.
type Command struct {
	Start string `json:"start"`
	Argv  []Word `json:"argv"`
}

type step struct {
	method string
}

// tag is a hash tag whose slot is 0: a zero Builder checks that every key
// is in slot 0, and words made with it pass that check.
var tag = slotZeroTag()

func main() {
	enc := json.NewEncoder(os.Stdout)
	bt := reflect.TypeOf(rueidis.Builder{})
	for i := 0; i < bt.NumMethod(); i++ {
		m := bt.Method(i)
		if m.Name == "Arbitrary" {
			continue
		}
		seen := map[reflect.Type]bool{}
		var walk func(path []string, t reflect.Type)
		walk = func(path []string, t reflect.Type) {
			if seen[t] || len(path) > 40 {
				return
			}
			seen[t] = true
			names := methodNames(t)
			// A key method of one key that returns its own type repeats
			// (MSET's KeyValue): call it once on the way. Variadic ones
			// already pass two keys, as many as numeric arguments say.
			for _, name := range names {
				if mt, _ := t.MethodByName(name); rank(name) == 0 && mt.Type.NumOut() == 1 && mt.Type.Out(0) == t && !mt.Type.IsVariadic() && buildable(mt.Type) {
					path = append(append([]string(nil), path...), name)
				}
			}
			for _, name := range names {
				if name == "Build" {
					if cmd, ok := build(m.Name, path); ok {
						if err := enc.Encode(cmd); err != nil {
							panic(err)
						}
					}
					continue
				}
				mt, _ := t.MethodByName(name)
				if mt.Type.NumOut() != 1 || !buildable(mt.Type) {
					continue
				}
				walk(append(append([]string(nil), path...), name), mt.Type.Out(0))
			}
		}
		walk([]string{m.Name}, m.Type.Out(0))
	}
}

// methodNames lists t's methods, key methods first so that each type is
// first reached through a chain that passes keys.
func methodNames(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumMethod(); i++ {
		out = append(out, t.Method(i).Name)
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

func rank(name string) int {
	switch name {
	case "Key", "Keys", "Destination", "Source", "Newkey", "KeyValue", "Store", "Storedist", "Destkey", "Sourcekey", "SourceKey":
		return 0
	}
	return 1
}

// buildable reports whether the method's parameters can be made up.
func buildable(mt reflect.Type) bool {
	for i := 1; i < mt.NumIn(); i++ {
		if _, ok := sample(mt.In(i), 0); !ok {
			return false
		}
	}
	return mt.Out(0).Kind() == reflect.Struct
}

// sample makes a value of t; strings are unique words.
func sample(t reflect.Type, n int) (reflect.Value, bool) {
	switch t.Kind() {
	case reflect.String:
		return reflect.ValueOf(fmt.Sprintf("{%s}w%d", tag, n)).Convert(t), true
	case reflect.Int64, reflect.Int, reflect.Uint64, reflect.Uint, reflect.Int32:
		return reflect.ValueOf(2).Convert(t), true
	case reflect.Float64:
		return reflect.ValueOf(1.5), true
	case reflect.Slice:
		if t.Elem().Kind() == reflect.String {
			return reflect.ValueOf([]string{}), true
		}
	}
	return reflect.Value{}, false
}

// build replays a chain from a zero Builder with made-up arguments and
// builds it.
func build(start string, path []string) (cmd Command, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	origin := map[string]Word{}
	n := 0
	v := reflect.ValueOf(rueidis.Builder{})
	for _, name := range path {
		m := v.MethodByName(name)
		mt := m.Type()
		recv := v.Type().Name()
		var args []reflect.Value
		for i := 0; i < mt.NumIn(); i++ {
			pt := mt.In(i)
			variadic := mt.IsVariadic() && i == mt.NumIn()-1
			strParam := pt.Kind() == reflect.String || pt.Kind() == reflect.Slice && pt.Elem().Kind() == reflect.String
			if variadic {
				pt = pt.Elem()
			}
			for range map[bool]int{false: 1, true: 2}[variadic] {
				a, _ := sample(pt, n)
				if pt.Kind() == reflect.String {
					origin[a.String()] = Word{Recv: recv, Method: name, Arg: i, Variadic: variadic, StrParam: strParam}
				}
				n++
				args = append(args, a)
			}
		}
		v = m.Call(args)[0]
	}
	out := v.MethodByName("Build").Call(nil)[0].Interface().(rueidis.Completed)
	cmd.Start = start
	for _, w := range out.Commands() {
		o := origin[w]
		o.Text = w
		cmd.Argv = append(cmd.Argv, o)
	}
	return cmd, true
}

// slotZeroTag finds a short string whose CRC16 (XMODEM) is a multiple of
// 16384: Redis's slot 0.
func slotZeroTag() string {
	for i := 0; ; i++ {
		s := fmt.Sprintf("t%d", i)
		if crc16([]byte(s))%16384 == 0 {
			return s
		}
	}
}

func crc16(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc ^= uint16(c) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}
