import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** A budget of `points` per fixed window of `durationMs`, counted per key. */
export interface LimitSpec {
  /** Names the budget: keys of different budgets never meet. */
  name: string;
  points: number;
  durationMs: number;
}

/**
 * Where the per-address abuse budgets are counted (rate-limiter-flexible): in this process's memory
 * by default, or in Redis when REDIS_URL is set, so that N gateways give an address one budget, not N.
 * While Redis is away each process counts in its own memory instead (the library's insurance limiter,
 * asked at once rather than after a timeout), so limits keep holding, per process, and nothing fails.
 */
export class SharedLimits {
  private readonly redis: Redis | undefined;
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(redisUrl: string | undefined, log?: Pick<FastifyBaseLogger, 'warn'>) {
    if (!redisUrl) return;
    // No offline queue: a count asked while Redis is down goes to memory at once instead of waiting; and
    // one that gets no answer (a connection silently gone) goes there after a second, not never.
    this.redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1_000 });
    let logged = false;
    this.redis.on('error', (error: Error) => {
      if (!logged) log?.warn({ err: error }, 'shared limits: Redis error, counting in memory until it is back');
      logged = true;
    });
    this.redis.on('ready', () => (logged = false));
  }

  /** Whether budgets are shared through Redis (when it is up). */
  get shared() {
    return this.redis !== undefined;
  }

  /** The limiter of one budget; the same spec answers the same limiter. */
  limiter(spec: LimitSpec): RateLimiterAbstract {
    const id = `${spec.name}:${spec.points}:${spec.durationMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const duration = spec.durationMs / 1000;
      const memory = new RateLimiterMemory({ keyPrefix: spec.name, points: spec.points, duration });
      limiter = this.redis
        ? new RateLimiterRedis({
            storeClient: this.redis,
            keyPrefix: `pipwise:limit:${spec.name}`,
            points: spec.points,
            duration,
            insuranceLimiter: memory,
            rejectIfRedisNotReady: true,
          })
        : memory;
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  /**
   * A store for @fastify/rate-limit counting each route's budget here, so the HTTP per-address limits
   * are shared the same way (and fall back to memory the same way) as the others.
   */
  httpStore(): FastifyRateLimitStoreCtor {
    const limiter = (spec: LimitSpec) => this.limiter(spec);
    return class extends RouteStore {
      constructor() {
        super(limiter, 'http');
      }
    };
  }

  async close() {
    this.redis?.disconnect();
  }
}

/** One route's budget (the plugin makes a child per route that sets its own limit). */
class RouteStore implements FastifyRateLimitStore {
  constructor(
    private readonly limiter: (spec: LimitSpec) => RateLimiterAbstract,
    private readonly name: string,
  ) {}

  incr(key: string, done: Parameters<FastifyRateLimitStore['incr']>[1], timeWindow: number, max: number) {
    this.limiter({ name: this.name, points: max, durationMs: timeWindow })
      .penalty(key)
      .then(
        (result) => done(null, { current: result.consumedPoints, ttl: result.msBeforeNext }),
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]) {
    // The plugin hands the route as `routeInfo` (its own Redis store keys by it too).
    const route = (routeOptions as unknown as { routeInfo: { method: string; url: string } }).routeInfo;
    return new RouteStore(this.limiter, `http:${route.method}${route.url}`);
  }
}
