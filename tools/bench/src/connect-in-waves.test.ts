import { describe, expect, it } from 'vitest';
import { connectInWaves } from './connect-in-waves';

describe('connectInWaves', () => {
  it('connects every client, never more than a wave at once', async () => {
    let open = 0;
    let most = 0;
    const connect = async () => {
      open += 1;
      most = Math.max(most, open);
      await new Promise((resolve) => setImmediate(resolve));
      open -= 1;
      return 'client';
    };
    const clients = await connectInWaves(150, connect, 64);
    expect(clients).toHaveLength(150);
    expect(most).toBe(64);
  });

  it('fails as the first failed connection does', async () => {
    await expect(connectInWaves(3, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });
});
