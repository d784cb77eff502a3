import { spawn } from 'node:child_process';

/**
 * Best effort: hands an address to the desktop's opener (`open` on macOS, `xdg-open` where a display is set) and says
 * whether it tried. Over SSH, in a container or with `PI_NO_BROWSER=1` it does not try, and the address is shown.
 */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env['PI_NO_BROWSER'] === '1') return false;
  const opener =
    process.platform === 'darwin'
      ? 'open'
      : process.platform !== 'win32' && (env['DISPLAY'] || env['WAYLAND_DISPLAY'])
        ? 'xdg-open'
        : undefined;
  if (opener === undefined) return false;
  try {
    const child = spawn(opener, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
