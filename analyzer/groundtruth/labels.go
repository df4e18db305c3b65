package groundtruth

import (
	"fmt"
	"go/ast"
	"strings"

	"github.com/slotlint/slotlint/analyzer/rules"
)

// SlotRules are the rules whose findings the cluster can confirm: a case
// is labelled with one of them, or "clean".
var SlotRules = map[string]bool{rules.SlotsDiffer: true, rules.NoCommonTag: true, rules.TxSlots: true, rules.ScriptKeySlots: true}

// Label returns the label of a case: the first word of its comment, when
// that is "clean" or a rule of SlotRules.
func Label(fd *ast.FuncDecl) (string, bool) {
	if fd.Doc == nil {
		return "", false
	}
	words := strings.Fields(fd.Doc.Text())
	if len(words) == 0 || words[0] != "clean" && !SlotRules[words[0]] {
		return "", false
	}
	return words[0], true
}

// Disagreement says how the slot rules reported inside a case disagree
// with its label, or returns "" when they agree: a case labelled clean
// has no slot finding, a case labelled with a rule exactly one, of that
// rule.
func Disagreement(label string, reported []string) string {
	switch {
	case label == "clean" && len(reported) > 0:
		return fmt.Sprintf("is labelled clean but the analyzer reports %v", reported)
	case label != "clean" && (len(reported) != 1 || reported[0] != label):
		return fmt.Sprintf("is labelled %s but the analyzer reports %v", label, reported)
	}
	return ""
}

// ValkeyFromRueidis renames rueidis code to valkey-go's: valkey-go is
// rueidis under another import path, with Redis in two names turned into
// Valkey. The valkey-go test module's ground truth is the rueidis cases so
// renamed, so that the two clients' cases cannot drift apart.
var ValkeyFromRueidis = strings.NewReplacer(
	"github.com/redis/rueidis", "github.com/valkey-io/valkey-go",
	"rueidis.RedisResult", "valkey.ValkeyResult",
	"rueidis.IsRedisNil", "valkey.IsValkeyNil",
	"rueidis", "valkey",
)
