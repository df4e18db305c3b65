package luacheck

import (
	"bytes"
	"strings"
)

// suppression is one "-- slotlint:ignore RULE reason" comment.
type suppression struct {
	line  int
	rules []string
}

const ignoreDirective = "slotlint:ignore"

// suppressions finds ignore comments. A comment silences its rules on its
// own line and on the next line; one without a reason is itself reported.
func (c *checker) suppressions() []suppression {
	var out []suppression
	line := 0
	for rest := c.src; len(rest) > 0 || line == 0; {
		line++
		var text []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			text, rest = rest[:i], rest[i+1:]
		} else {
			text, rest = rest, nil
		}
		i := bytes.Index(text, []byte("--"))
		if i < 0 || !bytes.Contains(text[i:], []byte(ignoreDirective)) {
			continue
		}
		comment := strings.TrimSpace(string(text[i+2:]))
		comment = strings.TrimLeft(comment, "-[ ")
		if !strings.HasPrefix(comment, ignoreDirective) {
			continue
		}
		fields := strings.Fields(strings.TrimPrefix(comment, ignoreDirective))
		var rules []string
		for len(fields) > 0 && isRuleID(strings.TrimSuffix(fields[0], ",")) {
			for _, r := range strings.Split(fields[0], ",") {
				if r != "" {
					rules = append(rules, r)
				}
			}
			fields = fields[1:]
		}
		col := i + 1
		switch {
		case len(rules) == 0:
			c.report(Finding{Pos: Position{Line: line, Column: col}, Rule: RuleSuppression,
				Message: "slotlint:ignore names no rule: write -- slotlint:ignore LUAxxx reason"})
		case len(fields) == 0:
			c.report(Finding{Pos: Position{Line: line, Column: col}, Rule: RuleSuppression,
				Message: "slotlint:ignore " + strings.Join(rules, ",") + " gives no reason: say why the finding does not apply"})
		default:
			out = append(out, suppression{line: line, rules: rules})
		}
	}
	return out
}

func isRuleID(s string) bool {
	for _, r := range strings.Split(s, ",") {
		if r == "" {
			continue
		}
		if len(r) != 6 || !strings.HasPrefix(r, "LUA") {
			return false
		}
		for i := 3; i < 6; i++ {
			if r[i] < '0' || r[i] > '9' {
				return false
			}
		}
	}
	return s != ""
}

// applySuppressions drops findings silenced by a comment with a reason.
func (c *checker) applySuppressions() {
	if c.src == nil || !bytes.Contains(c.src, []byte(ignoreDirective)) {
		return
	}
	sups := c.suppressions()
	if len(sups) == 0 {
		return
	}
	silenced := map[[2]any]bool{}
	for _, s := range sups {
		for _, r := range s.rules {
			silenced[[2]any{s.line, r}] = true
			silenced[[2]any{s.line + 1, r}] = true
		}
	}
	kept := c.res.Findings[:0]
	for _, f := range c.res.Findings {
		if f.Rule != RuleSuppression && silenced[[2]any{f.Pos.Line, f.Rule}] {
			continue
		}
		kept = append(kept, f)
	}
	c.res.Findings = kept
}
