import { createHash } from 'node:crypto';

/**
 * Sliding-window log, one sorted set per key (score = arrival time in ms, member = a unique
 * request id). The whole check-and-record runs as one script, so concurrent requests from any
 * number of API instances serialise in Redis and exactly `limit` of them can pass per window.
 * Time comes from Redis (TIME), not from the callers, so instances with skewed clocks agree.
 * Denied requests are not recorded: a client that keeps retrying gets back in as soon as its
 * oldest accepted request leaves the window, instead of being locked out indefinitely.
 *
 * KEYS[1] the window's key; ARGV: limit, window length in ms, unique request id.
 * Returns {allowed (0|1), requests counted in the window, ms until the oldest of them expires}.
 */
export const SLIDING_WINDOW_SCRIPT = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  redis.call('ZADD', key, now, ARGV[3])
  count = count + 1
  allowed = 1
end
local reset = window
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
if oldest[2] then
  reset = tonumber(oldest[2]) + window - now
  redis.call('PEXPIRE', key, window)
end
return {allowed, count, reset}
`;

export const SLIDING_WINDOW_SHA = createHash('sha1').update(SLIDING_WINDOW_SCRIPT).digest('hex');
