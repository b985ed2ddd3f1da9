/**
 * Lua scripts of the Redis thread lock. Each runs atomically inside Redis, which is what makes the
 * queue, the hand-over and the compare-and-delete safe across processes. Times come from Redis TIME so
 * that the clocks of the instances do not matter.
 */

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS: ticket, queue, beats, owner. ARGV: token, waiterTtlMs, keyTtlMs, ownerTtlMs. Joins the queue at the back. */
export const ENQUEUE = `${NOW}
redis.call('SET', KEYS[4], '1', 'PX', ARGV[4])
local n = redis.call('INCR', KEYS[1])
redis.call('ZADD', KEYS[2], n, ARGV[1])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), ARGV[1])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
return n`;

/**
 * KEYS: lock, queue, beats, owner. ARGV: token, lockTtlMs, waiterTtlMs, keyTtlMs, ownerPrefix, ownerTtlMs.
 * Returns 1 when the lock is taken, 0 to keep waiting, -1 when the token is no longer queued. A lock or a
 * queue place whose owner's liveness key is gone (a dead process, a stale key after a Redis restart) is
 * treated as free. Tokens are "<owner>.<random>"; the owner key is ownerPrefix .. owner.
 */
export const ACQUIRE = `${NOW}
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then return -1 end
redis.call('SET', KEYS[4], '1', 'PX', ARGV[6])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[3]), ARGV[1])
local dead = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
for _, d in ipairs(dead) do
  redis.call('ZREM', KEYS[2], d)
  redis.call('ZREM', KEYS[3], d)
end
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
local function gone(t)
  local owner = string.match(t, '^([^.]+)%.')
  return owner ~= nil and redis.call('EXISTS', ARGV[5] .. owner) == 0
end
local holder = redis.call('GET', KEYS[1])
if holder then
  if not gone(holder) then return 0 end
  redis.call('DEL', KEYS[1])
end
local head = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
if head ~= ARGV[1] then
  if head and (not redis.call('ZSCORE', KEYS[3], head) or gone(head)) then
    redis.call('ZREM', KEYS[2], head)
    redis.call('ZREM', KEYS[3], head)
  end
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1`;

/**
 * KEYS: lock. ARGV: token, lockTtlMs. Extends the lock if this token still holds it, or takes it back if
 * nobody holds it (Redis restarted without persistence while the turn ran). 0 when another turn has it.
 */
export const RENEW = `local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

/** KEYS: lock. ARGV: token. Compare-and-delete: never frees a lock that another turn took over. */
export const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/** KEYS: queue, beats. ARGV: token. Leaves the queue after giving up. */
export const LEAVE = `redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`;
