/**
 * Defaults of the platform, not limits of the service: the spec's part 8 (Limits) gives
 * none, yet a Worker must bound what it buffers. Each is reported as a platform default in
 * the status report, and a limit the contract declares will take its place.
 */
export interface PlatformDefault {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly reason: string;
}

/**
 * 1 MiB: a parsed JSON value takes several times its text in memory, and a Worker isolate
 * has 128 MB for all the requests it serves at once.
 */
export const MAX_BODY_BYTES = 1_048_576;

export function platformDefaults(maxBodyBytes: number): readonly PlatformDefault[] {
  return [
    {
      name: "maxRequestBodyBytes",
      value: maxBodyBytes,
      unit: "bytes",
      reason:
        "Protects the Worker's 128 MB memory for every operation that part 8 gives no " +
        "body-size limit; a larger body is answered 413.",
    },
  ];
}
