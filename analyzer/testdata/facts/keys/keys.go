// Package keys builds the service's Redis keys in one place.
package keys

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"time"
)

// Namespace is a package-level prefix.
var Namespace = "svc"

func User(id string) string { return "user:{" + id + "}" } // want User:`keyfunc\("user:\{" \+ id \+ "\}"\)`

func UserCart(id string) string { return User(id) + ":cart" } // want UserCart:`keyfunc\("user:\{" \+ id \+ "\}:cart"\)`

func Order(id int) string { return fmt.Sprintf("order:%d", id) } // want Order:`keyfunc\("order:" \+ id\)`

func Flat(id string) string { return "flat:" + id } // want Flat:`keyfunc\("flat:" \+ id\)`

func Spaced(id string) string { return Namespace + ":" + id } // want Spaced:`keyfunc\(Namespace \+ ":" \+ id\)`

func Num(n int) string { return "n:{" + strconv.Itoa(n) + "}" } // want Num:`keyfunc\("n:\{" \+ strconv.Itoa\(n\) \+ "\}"\)`

// Daily's date is computed inside: a new value at each call.
func Daily(id string, t time.Time) string { return "d:{" + id + "}:" + t.Format("2006-01-02") } // want Daily:`keyfunc\("d:\{" \+ id \+ "\}:" \+ t.Format\("2006-01-02"\)\)`

// Run's value is hex: it cannot hold a brace.
func Run(b []byte) string { return "run:" + hex.EncodeToString(b) + ":" } // want Run:`keyfunc\("run:" \+ hex.EncodeToString\(b\) \+ ":"\)`

// Branchy returns different shapes: no summary.
func Branchy(id string, admin bool) string {
	if admin {
		return "admin:" + id
	}
	return "user:" + id
}
