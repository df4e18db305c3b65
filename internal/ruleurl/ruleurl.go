// Package ruleurl says where each rule's documentation lives, for the
// diagnostics' URL field and the SARIF rule metadata. It imports nothing,
// so the reporting helpers of both checkers can use it.
package ruleurl

// Base is the folder of the rule docs (docs/rules/<ID>.md) on the
// project's main branch.
const Base = "https://github.com/slotlint/slotlint/blob/main/docs/rules/"

// For returns the URL of the doc of the rule with the given ID.
func For(id string) string { return Base + id + ".md" }
