// Package keys builds keys; it does not import go-redis.
package keys

func Session(id string) string { return "session:" + id }

func Tokens(id string) string { return "tokens:" + id }

func Cart(id string) string { return "cart:{" + id + "}" }
