/** The bounds every coding tool keeps, so one call can neither flood the model's context nor stall the session. */
export const TOOL_LIMITS = {
  /** `read`: lines per call when the model gives no `limit`, and the most it may ask for. */
  readDefaultLines: 2000,
  readMaxLines: 10_000,
  /** Longest line any tool shows; longer ones are cut with a marker. */
  maxLineLength: 2000,
  /** The most text one result carries (UTF-16 code units ≈ bytes for code). */
  maxOutputChars: 50 * 1024,
  /** The first bytes looked at to tell a binary file (git looks at 8000 for the same purpose). */
  binarySniffBytes: 8000,
  /** `grep` skips files larger than this. */
  grepMaxFileBytes: 5 * 1024 * 1024,
  /** Default and largest number of results of `ls`, `find` and `grep`. */
  listDefaultLimit: 500,
  findDefaultLimit: 1000,
  grepDefaultLimit: 100,
  listMaxLimit: 5000,
  /** A grep line is shorter than a read line: it is one of many. */
  grepMaxLineLength: 500,
  /** `bash`: the default and longest timeout, in seconds. */
  bashDefaultTimeoutSeconds: 120,
  bashMaxTimeoutSeconds: 3600,
  /** `bash` keeps the last this many bytes and lines of output. */
  bashMaxOutputBytes: 50 * 1024,
  bashMaxOutputLines: 2000,
  /** How long the process group has between SIGTERM and SIGKILL. */
  bashKillGraceMs: 1000,
  /** `write`/`edit` diffs in the details are cut at this many characters; computing one gives up after 1 s. */
  maxDiffChars: 64 * 1024,
  diffTimeoutMs: 1000,
} as const;
