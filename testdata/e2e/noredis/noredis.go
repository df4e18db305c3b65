// Package noredis has key-looking code but no Redis client: nothing to say.
package noredis

import "strings"

type Client struct{}

func (Client) MGet(keys ...string) []string { return keys }

func Use(c Client, id string) []string {
	return c.MGet("user:"+id, "order:"+id, strings.Join([]string{"{x}", id}, ":"))
}
