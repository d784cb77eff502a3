/** A running export: spans ended so far are sent by flush; shutdown sends the rest and stops exporting. */
export interface TraceExport {
  /** Sends every span ended so far; never rejects (a failed export is dropped, as the SDK does). */
  flush(): Promise<void>;
  /** Flushes, stops the provider and removes it from the global API; never rejects. Idempotent. */
  shutdown(): Promise<void>;
}

export interface TraceExportOptions {
  /** Where the OTEL_* variables are read from (normally process.env). */
  readonly env: NodeJS.ProcessEnv;
  /** `service.name` when OTEL_SERVICE_NAME is unset, e.g. 'pi-session'. */
  readonly defaultServiceName: string;
  /** Receives the one line saying why export was refused; by default it goes to stderr. */
  readonly warn?: (line: string) => void;
}
