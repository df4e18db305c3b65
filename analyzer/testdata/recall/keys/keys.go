// Package keys holds a service's keys in struct fields and in methods of
// small key types, as queue and cache libraries do.
package keys

import "fmt"

// Order names the keys of one order by its ID field.
type Order struct{ ID string }

func (o Order) Lock() string  { return fmt.Sprintf("order:{%s}:lock", o.ID) }  // want Lock:`keyfunc\("order:\{" \+ o.ID \+ "\}:lock"\)`
func (o Order) Items() string { return fmt.Sprintf("order:{%s}:items", o.ID) } // want Items:`keyfunc\("order:\{" \+ o.ID \+ "\}:items"\)`
func (o Order) Flat() string  { return "order:" + o.ID + ":flat" }             // want Flat:`keyfunc\("order:" \+ o.ID \+ ":flat"\)`

// QueueKeys are the keys of one queue.
type QueueKeys struct {
	StreamKey string
	SetKey    string
	Name      string
}

// Keys returns the untagged keys of queue q.
func Keys(q string) QueueKeys { // want Keys:`keyfields\(Name: "", SetKey: "q:" \+ q \+ ":set", StreamKey: "q:" \+ q \+ ":stream"\)`
	return QueueKeys{StreamKey: "q:" + q + ":stream", SetKey: "q:" + q + ":set"}
}

// TaggedKeys returns keys of queue q that share its tag.
func TaggedKeys(q string) *QueueKeys { // want TaggedKeys:`keyfields\(Name: q, SetKey: "q:\{" \+ q \+ "\}:set", StreamKey: "q:\{" \+ q \+ "\}:stream"\)`
	k := &QueueKeys{StreamKey: "q:{" + q + "}:stream", SetKey: "q:{" + q + "}:set", Name: q}
	return k
}

// Queue holds its keys in fields its constructor sets once.
type Queue struct {
	prefix  string // want prefix:`fieldkey\(prefix\)`
	setKey  string // want setKey:`fieldkey\(prefix \+ name \+ ":set"\)`
	listKey string // want listKey:`fieldkey\(prefix \+ name \+ ":list"\)`
	lockKey string // want lockKey:`fieldkey\(prefix \+ "\{" \+ name \+ "\}:lock"\)`
	jobsKey string // want jobsKey:`fieldkey\(prefix \+ "\{" \+ name \+ "\}:jobs"\)`
	// moved is set in two places: its value is not one shape.
	moved string
}

func NewQueue(prefix, name string) *Queue { // want NewQueue:`keyfields\(jobsKey: .*`
	return &Queue{
		prefix:  prefix,
		setKey:  prefix + name + ":set",
		listKey: prefix + name + ":list",
		lockKey: prefix + "{" + name + "}:lock",
		jobsKey: prefix + "{" + name + "}:jobs",
		moved:   prefix + "{" + name + "}:moved",
	}
}

// Move points the queue's moved key elsewhere.
func (q *Queue) Move(to string) { q.moved = to + ":moved" }

func (q *Queue) SetKey() string  { return q.setKey }  // want SetKey:`keyfunc\(q.prefix \+ q.name \+ ":set"\)`
func (q *Queue) ListKey() string { return q.listKey } // want ListKey:`keyfunc\(q.prefix \+ q.name \+ ":list"\)`
func (q *Queue) LockKey() string { return q.lockKey } // want LockKey:`keyfunc\(q.prefix \+ "\{" \+ q.name \+ "\}:lock"\)`
func (q *Queue) JobsKey() string { return q.jobsKey } // want JobsKey:`keyfunc\(q.prefix \+ "\{" \+ q.name \+ "\}:jobs"\)`
func (q *Queue) Moved() string   { return q.moved }
