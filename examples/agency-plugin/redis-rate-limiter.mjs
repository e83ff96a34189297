// The per-key counters on Redis, so every process of the host counts against one limit. The
// `RateLimiter` port of @incasso/server: `hit(key, limit, windowSeconds, now)`.

/**
 * A fixed-window rate limiter on Redis. The windows are aligned to the clock, as the built-in
 * limiters' are; INCR and PEXPIREAT go in one MULTI, so a window's counter never outlives it.
 *
 * @param {import("redis").RedisClientType} client a connected client
 * @param {{ prefix?: string }} [options]
 * @returns {import("@incasso/server").RateLimiter}
 * @example
 * const limiter = redisRateLimiter(await createClient({ url: process.env.REDIS_URL }).connect());
 */
export function redisRateLimiter(client, options = {}) {
  const prefix = options.prefix ?? "incasso:rl:";
  return {
    async hit(key, limit, windowSeconds, now) {
      const t = now.getTime();
      const windowMs = windowSeconds * 1000;
      const start = t - (t % windowMs);
      const name = `${prefix}${key}:${start}`;
      const [count] = await client
        .multi()
        .incr(name)
        .pExpireAt(name, start + windowMs)
        .exec();
      const n = Number(count);
      return {
        allowed: n <= limit,
        limit,
        remaining: Math.max(0, limit - n),
        resetSeconds: Math.max(1, Math.ceil((start + windowMs - t) / 1000)),
      };
    },
  };
}
