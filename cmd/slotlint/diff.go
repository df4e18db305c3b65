package main

import (
	"fmt"
	"strings"
)

// maxDiffCells bounds the table of the line diff (lines of the changed
// middle of the old file times those of the new one): past it the middle
// is shown as removed and added whole, which is still a correct patch.
const maxDiffCells = 4 << 20

// unifiedDiff is a unified diff of a file's old and new text with three
// lines of context, "" when they are equal.
func unifiedDiff(name, before, after string) string {
	if before == after {
		return ""
	}
	a, b := splitLines(before), splitLines(after)
	ops := lineOps(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s (old)\n+++ %s (new)\n", name, name)
	const context = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from context lines before the change to context lines
		// after the last change that is within 2*context of the next.
		start := max(0, i-context)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j + 1
			} else if j-end >= 2*context {
				break
			}
		}
		end = min(len(ops), end+context)
		oldStart, newStart := ops[start].oldLine, ops[start].newLine
		var oldN, newN int
		var body strings.Builder
		for _, op := range ops[start:end] {
			body.WriteByte(op.kind)
			body.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				body.WriteString("\n\\ No newline at end of file\n")
			}
			if op.kind != '+' {
				oldN++
			}
			if op.kind != '-' {
				newN++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(oldStart, oldN), hunkRange(newStart, newN))
		out.WriteString(body.String())
		i = end
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// lineOp is one line of a diff: ' ' kept, '-' removed, '+' added, with its
// 1-based line numbers in the old and new text (the next line's for the
// side it is not in).
type lineOp struct {
	kind             byte
	text             string
	oldLine, newLine int
}

func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// lineOps aligns a and b on a longest common subsequence of lines, after
// their common prefix and suffix.
func lineOps(a, b []string) []lineOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	midA, midB := a[pre:len(a)-suf], b[pre:len(b)-suf]
	var ops []lineOp
	oi, ni := 1, 1
	emit := func(kind byte, text string) {
		ops = append(ops, lineOp{kind: kind, text: text, oldLine: oi, newLine: ni})
		if kind != '+' {
			oi++
		}
		if kind != '-' {
			ni++
		}
	}
	for _, l := range a[:pre] {
		emit(' ', l)
	}
	if len(midA)*len(midB) > maxDiffCells {
		for _, l := range midA {
			emit('-', l)
		}
		for _, l := range midB {
			emit('+', l)
		}
	} else {
		// lcs[i][j]: length of the LCS of midA[i:] and midB[j:].
		lcs := make([][]int, len(midA)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(midB)+1)
		}
		for i := len(midA) - 1; i >= 0; i-- {
			for j := len(midB) - 1; j >= 0; j-- {
				if midA[i] == midB[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(midA) || j < len(midB) {
			switch {
			case i < len(midA) && j < len(midB) && midA[i] == midB[j]:
				emit(' ', midA[i])
				i, j = i+1, j+1
			case i < len(midA) && (j == len(midB) || lcs[i+1][j] >= lcs[i][j+1]):
				emit('-', midA[i])
				i++
			default:
				emit('+', midB[j])
				j++
			}
		}
	}
	for _, l := range a[len(a)-suf:] {
		emit(' ', l)
	}
	return ops
}
