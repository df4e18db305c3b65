// Package hashtag defines an Analyzer that checks the hash tags of every key
// sent through go-redis, single-key commands included.
//
// # Analyzer hashtag
//
// hashtag: report hash tags that are constant, empty, ignored, unclosed or
// inconsistent within a key family
//
// Redis hashes only the text between the first '{' and the first '}' after
// it, when that text is not empty. The analyzer reports:
//
//   - SL1101 a constant tag on a key whose other parts vary ("{cart}:"+id):
//     every key of the family lands in one slot, a hot shard;
//   - SL1102 an empty tag "{}", which Redis ignores;
//   - SL1103 a tag Redis ignores: a second {...}, or text of unknown value
//     before the first '{' that would move the tag if it held a brace
//     (numbers and hex, base32 or base64 text cannot, and are not
//     reported). Such text is almost always a configurable prefix
//     (s.prefix + ":{" + id + "}") that holds no brace, so it is reported
//     only under -slotlint.strict or -slotlint.braces, once per key
//     family;
//   - SL1104 one key family (same shape: literal text with values in the same
//     places) spelled with and without a tag, or with different tags, in
//     one package: two spellings are two keys in two slots;
//   - SL1105 a '{' with no '}' after it: no tag at all.
//
// Suppress one finding with //slotlint:ignore SL1101 reason.
package hashtag
