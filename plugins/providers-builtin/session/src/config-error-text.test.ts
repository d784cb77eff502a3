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
});
