package crossslot

import (
	"time"

	"github.com/redis/go-redis/v9"
)

// Every multi-key method of go-redis v9, each with two keys of different
// families (reported) in methods, and the same calls with one hash tag
// (silent) in methodsTagged.
func methods(c redis.Cmdable, id string) {
	x, y, z := "x:"+id, "y:"+id, "z:"+id
	d := time.Second
	c.Del(ctx, x, y)                                                            // want `DEL keys`
	c.Unlink(ctx, x, y)                                                         // want `UNLINK keys`
	c.Exists(ctx, x, y)                                                         // want `EXISTS keys`
	c.Touch(ctx, x, y)                                                          // want `TOUCH keys`
	c.MGet(ctx, x, y)                                                           // want `MGET keys`
	c.SDiff(ctx, x, y)                                                          // want `SDIFF keys`
	c.SInter(ctx, x, y)                                                         // want `SINTER keys`
	c.SUnion(ctx, x, y)                                                         // want `SUNION keys`
	c.SInterCard(ctx, 10, x, y)                                                 // want `SINTERCARD keys`
	c.SDiffCard(ctx, nil, x, y)                                                 // want `SDIFFCARD keys`
	c.SUnionCard(ctx, nil, x, y)                                                // want `SUNIONCARD keys`
	c.ZDiff(ctx, x, y)                                                          // want `ZDIFF keys`
	c.ZDiffWithScores(ctx, x, y)                                                // want `ZDIFF keys`
	c.ZInter(ctx, &redis.ZStore{Keys: []string{x, y}})                          // want `ZINTER keys`
	c.ZInterWithScores(ctx, &redis.ZStore{Keys: []string{x, y}})                // want `ZINTER keys`
	c.ZUnion(ctx, redis.ZStore{Keys: []string{x, y}})                           // want `ZUNION keys`
	c.ZUnionWithScores(ctx, redis.ZStore{Keys: []string{x, y}})                 // want `ZUNION keys`
	c.ZInterCard(ctx, 0, x, y)                                                  // want `ZINTERCARD keys`
	c.ZMPop(ctx, "min", 1, x, y)                                                // want `ZMPOP keys`
	c.LMPop(ctx, "left", 1, x, y)                                               // want `LMPOP keys`
	c.PFCount(ctx, x, y)                                                        // want `PFCOUNT keys`
	c.BLPop(ctx, d, x, y)                                                       // want `BLPOP keys`
	c.BRPop(ctx, d, x, y)                                                       // want `BRPOP keys`
	c.BLMPop(ctx, d, "left", 1, x, y)                                           // want `BLMPOP keys`
	c.BZPopMin(ctx, d, x, y)                                                    // want `BZPOPMIN keys`
	c.BZPopMax(ctx, d, x, y)                                                    // want `BZPOPMAX keys`
	c.BZMPop(ctx, d, "max", 1, x, y)                                            // want `BZMPOP keys`
	c.SDiffStore(ctx, z, x, y)                                                  // want `SDIFFSTORE keys`
	c.SInterStore(ctx, z, x, y)                                                 // want `SINTERSTORE keys`
	c.SUnionStore(ctx, z, x, y)                                                 // want `SUNIONSTORE keys`
	c.ZDiffStore(ctx, z, x, y)                                                  // want `ZDIFFSTORE keys`
	c.ZInterStore(ctx, z, &redis.ZStore{Keys: []string{x, y}})                  // want `ZINTERSTORE keys`
	c.ZUnionStore(ctx, z, &redis.ZStore{Keys: []string{x, y}})                  // want `ZUNIONSTORE keys`
	c.PFMerge(ctx, z, x, y)                                                     // want `PFMERGE keys`
	c.BitOpAnd(ctx, z, x, y)                                                    // want `BITOP AND keys`
	c.BitOpOr(ctx, z, x, y)                                                     // want `BITOP OR keys`
	c.BitOpXor(ctx, z, x, y)                                                    // want `BITOP XOR keys`
	c.BitOpNot(ctx, z, x)                                                       // want `BITOP NOT keys`
	c.BitOpDiff(ctx, z, x, y)                                                   // want `BITOP DIFF keys`
	c.BitOpDiff1(ctx, z, x, y)                                                  // want `BITOP DIFF1 keys`
	c.BitOpAndOr(ctx, z, x, y)                                                  // want `BITOP ANDOR keys`
	c.BitOpOne(ctx, z, x, y)                                                    // want `BITOP ONE keys`
	c.Rename(ctx, x, y)                                                         // want `RENAME keys`
	c.RenameNX(ctx, x, y)                                                       // want `RENAMENX keys`
	c.Copy(ctx, x, y, 0, true)                                                  // want `COPY keys`
	c.SMove(ctx, x, y, "m")                                                     // want `SMOVE keys`
	c.LMove(ctx, x, y, "LEFT", "RIGHT")                                         // want `LMOVE keys`
	c.BLMove(ctx, x, y, "LEFT", "RIGHT", d)                                     // want `BLMOVE keys`
	c.LMoveM(ctx, x, y, "LEFT", "RIGHT", redis.LMoveMArgs{})                    // want `LMOVEM keys`
	c.BLMoveM(ctx, x, y, "LEFT", "RIGHT", d, redis.LMoveMArgs{})                // want `BLMOVEM keys`
	c.RPopLPush(ctx, x, y)                                                      // want `RPOPLPUSH keys`
	c.BRPopLPush(ctx, x, y, d)                                                  // want `BRPOPLPUSH keys`
	c.SortStore(ctx, x, y, &redis.Sort{})                                       // want `SORT keys`
	c.GeoSearchStore(ctx, x, y, &redis.GeoSearchStoreQuery{})                   // want `GEOSEARCHSTORE keys`
	c.GeoRadiusStore(ctx, x, 0, 0, &redis.GeoRadiusQuery{Store: y})             // want `GEORADIUS keys`
	c.GeoRadiusByMemberStore(ctx, x, "m", &redis.GeoRadiusQuery{StoreDist: y})  // want `GEORADIUSBYMEMBER keys`
	c.ZRangeStore(ctx, x, redis.ZRangeArgs{Key: y})                             // want `ZRANGESTORE keys`
	c.LCS(ctx, &redis.LCSQuery{Key1: x, Key2: y})                               // want `LCS keys`
	c.XRead(ctx, &redis.XReadArgs{Streams: []string{x, y, "0", "0"}})           // want `XREAD keys`
	c.XRead(ctx, &redis.XReadArgs{Streams: []string{x, y}, ID: "$"})            // want `XREAD keys`
	c.XReadGroup(ctx, &redis.XReadGroupArgs{Streams: []string{x, y, ">", ">"}}) // want `XREADGROUP keys`
	c.XReadStreams(ctx, x, y, "0", "0")                                         // want `XREAD keys`
	c.MSet(ctx, x, 1, y, 2)                                                     // want `MSET keys`
	c.MSetNX(ctx, map[string]interface{}{x: 1, y: 2})                           // want `MSETNX keys`
	c.MSetEX(ctx, redis.MSetEXArgs{}, []string{x, "1", y, "2"})                 // want `MSETEX keys`
	c.JSONMGet(ctx, "$", x, y)                                                  // want `JSON.MGET keys`
	c.CMSMerge(ctx, z, x, y)                                                    // want `CMS.MERGE keys`
	c.CMSMergeWithWeight(ctx, z, map[string]int64{x: 1, y: 2})                  // want `CMS.MERGE keys`
	c.TDigestMerge(ctx, z, nil, x, y)                                           // want `TDIGEST.MERGE keys`
	c.TSCreateRule(ctx, x, y, redis.Avg, 1000)                                  // want `TS.CREATERULE keys`
	c.TSCreateRuleWithArgs(ctx, x, y, redis.Avg, 1000, nil)                     // want `TS.CREATERULE keys`
	c.TSDeleteRule(ctx, x, y)                                                   // want `TS.DELETERULE keys`
}

func methodsTagged(c redis.Cmdable, id string) {
	x, y, z := "x:{"+id+"}", "y:{"+id+"}", "z:{"+id+"}"
	d := time.Second
	c.Del(ctx, x, y)
	c.SInterCard(ctx, 10, x, y)
	c.ZInter(ctx, &redis.ZStore{Keys: []string{x, y}})
	c.BZMPop(ctx, d, "max", 1, x, y)
	c.ZUnionStore(ctx, z, &redis.ZStore{Keys: []string{x, y}})
	c.BitOpAndOr(ctx, z, x, y)
	c.BLMove(ctx, x, y, "LEFT", "RIGHT", d)
	c.GeoRadiusStore(ctx, x, 0, 0, &redis.GeoRadiusQuery{Store: y, StoreDist: z})
	c.ZRangeStore(ctx, x, redis.ZRangeArgs{Key: y})
	c.XReadGroup(ctx, &redis.XReadGroupArgs{Streams: []string{x, y, ">", ">"}})
	c.MSetEX(ctx, redis.MSetEXArgs{}, x, 1, y, 2)
	c.CMSMergeWithWeight(ctx, z, map[string]int64{x: 1, y: 2})
	c.TSCreateRule(ctx, x, y, redis.Avg, 1000)
	c.XRead(ctx, &redis.XReadArgs{Streams: []string{x, "0"}})
	c.LCS(ctx, &redis.LCSQuery{Key1: x, Key2: y})
}
