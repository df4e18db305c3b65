// Command shop serves the shop's cart and order API on a Redis Cluster
// (REDIS_ADDRS, comma-separated) or a single Redis (one address).
package main

import (
	"context"
	"encoding/json"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/shop/cart"
	"example.com/shop/inventory"
	"example.com/shop/lock"
	"example.com/shop/orders"
	"example.com/shop/ratelimit"
)

func main() {
	addrs := strings.Split(os.Getenv("REDIS_ADDRS"), ",")
	rdb := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs})
	defer rdb.Close()

	carts := cart.New(rdb)
	stock := inventory.New(rdb)
	store := orders.New(rdb)
	limiter := ratelimit.New(rdb, 100, time.Minute)

	http.HandleFunc("POST /cart/{user}/{sku}", func(w http.ResponseWriter, r *http.Request) {
		user, sku := r.PathValue("user"), r.PathValue("sku")
		if ok, err := limiter.Allow(r.Context(), user); err != nil || !ok {
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		if ok, err := stock.Hold(r.Context(), sku, 1); err != nil || !ok {
			http.Error(w, "out of stock", http.StatusConflict)
			return
		}
		if err := carts.Add(r.Context(), user, sku, 1); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = carts.Touch(r.Context(), user)
	})
	http.HandleFunc("POST /checkout/{user}", func(w http.ResponseWriter, r *http.Request) {
		user := r.PathValue("user")
		id, err := store.Number(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		// One checkout per user at a time.
		mu := lock.New(rdb, "checkout:"+user, strconv.FormatInt(id, 10), 30*time.Second)
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		if err := mu.Lock(ctx); err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
			return
		}
		defer mu.Unlock(context.Background())
		n, err := store.Checkout(r.Context(), user, id)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]int64{"order": id, "items": n})
	})
	log.Fatal(http.ListenAndServe(":8080", nil))
}
