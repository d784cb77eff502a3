import { describe, expect, it } from 'vitest';
import { MAX_LEARNED_REPLICAS, coordinatorUpstream } from './coordinator-upstream';

describe('the coordinator upstream', () => {
  it('learns replicas it does not know yet, ws:// or wss:// only, up to a bound, and says which were new', () => {
    const upstream = coordinatorUpstream({ urls: ['wss://a:7443/'], credential: 'c.mac' });
    try {
      expect(upstream.learnReplicas(['wss://a:7443/', 'wss://b:7443/', 'https://c/', 'wss://b:7443/'])).toEqual([
        'wss://b:7443/',
      ]);
      expect(upstream.learnReplicas(['wss://b:7443/'])).toEqual([]);
      const many = Array.from({ length: MAX_LEARNED_REPLICAS + 5 }, (_, index) => `wss://r${index}:7443/`);
      expect(upstream.learnReplicas(many)).toHaveLength(MAX_LEARNED_REPLICAS - 1);
    } finally {
      upstream.close();
    }
  });
});
