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
    case 'too_large':
      return `models.json is ${kibibytes(error.limit?.found)}, over the ${kibibytes(error.limit?.max)} limit: not loaded`;
    case 'too_many_models':
      return `models.json lists ${count(error.limit?.found)} models, over the limit of ${count(error.limit?.max)}: not loaded`;
  }
}

/** Rounded up, so a file just over the limit never reads as the limit itself. */
function kibibytes(bytes: number | undefined): string {
  return bytes === undefined ? 'too large' : `${count(Math.ceil(bytes / 1024))} KiB`;
}

function count(value: number | undefined): string {
  return value === undefined ? 'too many' : value.toLocaleString('en-US');
}
