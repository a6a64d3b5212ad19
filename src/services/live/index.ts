/**
 * The Live hub a process uses (CONTRACT C9.2): over Redis pub/sub when
 * REDIS_URL is set, so every process's Live pages hear of visits any process
 * received; otherwise in this process alone (README "Live").
 */
import { LiveHub, type LiveLimits } from './live-hub.js';
import { MemoryLiveBus, RedisLiveBus } from './live-bus.js';

export function createLiveHub(redisUrl: string | undefined, onError?: (error: Error) => void, limits?: Partial<LiveLimits>): LiveHub {
  return new LiveHub(redisUrl === undefined ? new MemoryLiveBus() : new RedisLiveBus(redisUrl, onError), limits);
}
