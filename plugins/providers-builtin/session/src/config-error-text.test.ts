import { describe, expect, it } from 'vitest';
import { configErrorText } from './config-error-text';

describe('configErrorText', () => {
  it('names the problem without the path or a snippet of the file', () => {
    const text = configErrorText({
      code: 'invalid_json',
      file: '/home/user/.pi/agent/models.json',
      issues: [],
      message: 'models.json /home/user/.pi/agent/models.json is not valid JSON: Unexpected token in "Bearer sk-secret"',
    });
    expect(text).toBe('models.json is not valid JSON');
  });

  it('lists the validation issues a user would fix', () => {
    const text = configErrorText({
      code: 'invalid_config',
      file: '/x/models.json',
      issues: ['providers.x.baseUrl: Invalid URL'],
      message: 'models.json /x/models.json: …',
    });
    expect(text).toBe('models.json: providers.x.baseUrl: Invalid URL');
  });

  it('names the size limit a file is over, in KiB rounded up', () => {
    const text = configErrorText({
      code: 'too_large',
      file: '/x/models.json',
      issues: [],
      message: 'models.json /x/models.json is 4718592 bytes, …',
      limit: { found: 1024 * 1024 + 1, max: 1024 * 1024 },
    });
    expect(text).toBe('models.json is 1,025 KiB, over the 1,024 KiB limit: not loaded');
  });

  it('names the model limit a file is over', () => {
    const text = configErrorText({
      code: 'too_many_models',
      file: '/x/models.json',
      issues: [],
      message: 'models.json /x/models.json: lists 60000 models, …',
      limit: { found: 60_000, max: 2_000 },
    });
    expect(text).toBe('models.json lists 60,000 models, over the limit of 2,000: not loaded');
  });
});
