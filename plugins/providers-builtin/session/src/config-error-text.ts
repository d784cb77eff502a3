import type { ConfigError } from '@pi/model-providers';

/**
 * A models.json problem as a presentation may see it: what to fix, without the absolute path (presentations
 * get no filesystem paths) and without JSON.parse's message, which quotes a snippet of the file (where a
 * header value may be a secret).
 */
export function configErrorText(error: ConfigError): string {
  switch (error.code) {
    case 'unreadable_file':
      return 'models.json cannot be read';
    case 'invalid_json':
      return 'models.json is not valid JSON';
    case 'invalid_config':
      return `models.json: ${error.issues.join('; ')}`;
    case 'unwatchable':
      return 'models.json changes cannot be watched; restart the session to apply later edits';
  }
}
