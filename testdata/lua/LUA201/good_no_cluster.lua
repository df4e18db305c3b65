#!lua flags=no-cluster
-- a script that refuses to run on a cluster may use any key
return redis.call("INCR", "stats:standalone")
