package slot

import "testing"

// referenceCRC16 is CRC16-XMODEM computed bit by bit (polynomial 0x1021,
// initial value 0, no reflection), independent of any table.
func referenceCRC16(data []byte) uint16 {
	var crc uint16
	for _, b := range data {
		crc ^= uint16(b) << 8
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

// referenceSlot applies Redis's tag rule by hand on top of referenceCRC16.
func referenceSlot(key []byte) int {
	start, end := -1, -1
	for i, c := range key {
		if c == '{' {
			start = i
			break
		}
	}
	if start >= 0 {
		for i := start + 1; i < len(key); i++ {
			if key[i] == '}' {
				end = i
				break
			}
		}
	}
	if start >= 0 && end > start+1 {
		key = key[start+1 : end]
	}
	return int(referenceCRC16(key) % Count)
}

func TestReferenceCRCCheckValue(t *testing.T) {
	// The published check value of CRC-16/XMODEM over "123456789".
	if got := referenceCRC16([]byte("123456789")); got != 0x31C3 {
		t.Fatalf("reference CRC16(123456789) = %#x, want 0x31c3", got)
	}
}

func TestTag(t *testing.T) {
	tests := []struct {
		key   string
		tag   string
		hasIt bool
	}{
		{"", "", false},
		{"user:1", "", false},
		{"{user}:1", "user", true},
		{"user:{1}", "1", true},
		{"foo{}{bar}", "", false},       // empty first tag: whole key hashed
		{"foo{{bar}}zap", "{bar", true}, // first '{' to first '}' after it
		{"foo{bar}{zap}", "bar", true},  // only the first tag counts
		{"foo{bar", "", false},          // unclosed
		{"foo}bar{", "", false},         // '}' before '{' does not close it
		{"}{x}", "x", true},
		{"{", "", false},
		{"{}", "", false},
		{"{}}", "", false},
		{"{{}", "{", true},
		{"a{ }b", " ", true},
		{"ключ{тег}", "тег", true},
	}
	for _, tt := range tests {
		tag, ok := Tag(tt.key)
		if tag != tt.tag || ok != tt.hasIt {
			t.Errorf("Tag(%q) = %q, %v; want %q, %v", tt.key, tag, ok, tt.tag, tt.hasIt)
		}
	}
}

func TestSlotMatchesReference(t *testing.T) {
	keys := []string{"", "a", "foo", "123456789", "{user}:1", "user:{1}", "foo{}{bar}",
		"foo{{bar}}zap", "foo{bar", "{", "{}", "\xff\x00{\x01}", "ключ{тег}"}
	for _, k := range keys {
		if got, want := Slot(k), referenceSlot([]byte(k)); got != want {
			t.Errorf("Slot(%q) = %d, reference %d", k, got, want)
		}
		if got, want := SlotBytes([]byte(k)), Slot(k); got != want {
			t.Errorf("SlotBytes(%q) = %d, Slot %d", k, got, want)
		}
	}
}

func TestSlotRules(t *testing.T) {
	// Relations Redis's rule implies, whatever the CRC values are.
	same := [][2]string{
		{"{user:1}:profile", "{user:1}:cart"},
		{"a{x}b", "x"},
		{"foo{{bar}}zap", "{bar"},
		{"foo{bar}{zap}", "bar"},
	}
	for _, p := range same {
		if Slot(p[0]) != Slot(p[1]) {
			t.Errorf("Slot(%q)=%d != Slot(%q)=%d", p[0], Slot(p[0]), p[1], Slot(p[1]))
		}
	}
	if Slot("") != 0 {
		t.Errorf("Slot(\"\") = %d, want 0", Slot(""))
	}
	if Slot("foo{}{bar}") != int(referenceCRC16([]byte("foo{}{bar}"))%Count) {
		t.Error("foo{}{bar} must hash the whole key")
	}
}

func FuzzSlot(f *testing.F) {
	for _, s := range []string{"", "foo", "{a}b", "a{}{b}", "x{{y}}z", "\x00\xff{", "ключ"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, key []byte) {
		want := referenceSlot(key)
		if got := SlotBytes(key); got != want {
			t.Fatalf("SlotBytes(%q) = %d, reference %d", key, got, want)
		}
		if got := Slot(string(key)); got != want {
			t.Fatalf("Slot(%q) = %d, reference %d", key, got, want)
		}
	})
}

func FuzzTag(f *testing.F) {
	for _, s := range []string{"", "{a}", "a{}{b}", "x{{y}}z", "{", "}{", "a{b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		tag, ok := Tag(key)
		if !ok {
			if tag != "" {
				t.Fatalf("Tag(%q) = %q without a tag", key, tag)
			}
			if HashedPart(key) != key {
				t.Fatalf("HashedPart(%q) = %q, want the whole key", key, HashedPart(key))
			}
			if a := Analyze(Literal(key), Options{}); a.Kind != TagNone {
				t.Fatalf("Analyze(%q) = %v, want no tag", key, a.Kind)
			}
			return
		}
		// A tag is non-empty, holds no '}', and sits right after the first '{'.
		if tag == "" {
			t.Fatalf("Tag(%q) returned an empty tag", key)
		}
		for i := 0; i < len(tag); i++ {
			if tag[i] == '}' {
				t.Fatalf("Tag(%q) = %q contains '}'", key, tag)
			}
		}
		first := -1
		for i := 0; i < len(key); i++ {
			if key[i] == '{' {
				first = i
				break
			}
		}
		if first < 0 || key[first+1:first+1+len(tag)] != tag || key[first+1+len(tag)] != '}' {
			t.Fatalf("Tag(%q) = %q is not the text after the first '{'", key, tag)
		}
		if Slot(key) != Slot(tag) {
			t.Fatalf("Slot(%q) != Slot(tag %q)", key, tag)
		}
		// The symbolic model agrees with the string rule on literal keys.
		a := Analyze(Literal(key), Options{})
		if got, _ := a.Tag.Literal(); a.Kind != TagLiteral || got != tag {
			t.Fatalf("Analyze(%q) = %v %q, want literal tag %q", key, a.Kind, got, tag)
		}
	})
}
