-- One class file of a library joined from several files at build time (in
-- the image of qless-core's job.lua): it adds methods to a table that
-- another file creates, and reads that file's namespace.
function QlessJob:priority(priority)
  redis.call('hset', QlessJob.ns .. self.jid, 'priority', priority)
  Qless.publish('log', self.jid)
end

function QlessJob:exists()
  return redis.call('exists', QlessJob.ns .. self.jid) == 1
end
