/**
 * Lua scripts of the Redis thread lock. Each runs atomically inside Redis, which is what makes the
 * queue, the hand-over and the compare-and-delete safe across processes. Times come from Redis TIME so
 * that the clocks of the instances do not matter.
 */

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS: ticket, queue, beats. ARGV: token, waiterTtlMs, keyTtlMs. Joins the queue at the back. */
export const ENQUEUE = `${NOW}
local n = redis.call('INCR', KEYS[1])
redis.call('ZADD', KEYS[2], n, ARGV[1])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), ARGV[1])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
return n`;

/**
 * KEYS: lock, queue, beats. ARGV: token, lockTtlMs, waiterTtlMs, keyTtlMs.
 * Returns 1 when the lock is taken, 0 to keep waiting, -1 when the token is no longer queued.
 */
export const ACQUIRE = `${NOW}
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then return -1 end
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[3]), ARGV[1])
local dead = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
for _, d in ipairs(dead) do
  redis.call('ZREM', KEYS[2], d)
  redis.call('ZREM', KEYS[3], d)
end
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local head = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
if head ~= ARGV[1] then
  if head and not redis.call('ZSCORE', KEYS[3], head) then redis.call('ZREM', KEYS[2], head) end
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1`;

/** KEYS: lock. ARGV: token, lockTtlMs. Extends the lock only if this token still holds it. */
export const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
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
