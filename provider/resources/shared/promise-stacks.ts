/**
 * The cheapest part of a resource of ours that a program pays for, made cheaper. While a resource
 * registers, the SDK takes a stack trace for each of the four promises of each of its properties
 * (`debuggablePromise` in @pulumi/pulumi's runtime/debuggable), and reads its text at once. That text is
 * printed only by the SDK's promise-leak report, under `PULUMI_DEBUG_PROMISE_LEAKS`. Yet Pulumi's Node
 * runner formats every stack with source-map-support, which wraps and maps each frame: for the 17
 * properties of a key, the largest cost of the program (docs/performance.md). For those traces only,
 * and only while one of our constructors runs, the frames are written as V8's call sites print
 * themselves, unmapped. Every other stack goes through the program's formatter as before: the
 * resource's source position (the SDK's `Resource.callsites`, formatted at once) and the error a failed
 * registration rejects with (taken during the constructor, formatted when it is read, after it).
 */

/** The SDK's function whose stack traces only its promise-leak report reads. */
const LEAK_TRACE = "debuggablePromise";

const restoreNothing = () => {};

/**
 * Until the returned function is called, formats the SDK's promise-debugging stack traces plainly,
 * when the program has a formatter of its own (`Error.prepareStackTrace`) and the leak report is off;
 * otherwise changes nothing. Call it just before `super(…)` and the returned function in a `finally`.
 */
export function plainLeakTraces(): () => void {
  const programs = Error.prepareStackTrace;
  if (programs === undefined || process.env.PULUMI_DEBUG_PROMISE_LEAKS) return restoreNothing;
  Error.prepareStackTrace = (error, frames) =>
    frames[0]?.getFunctionName() === LEAK_TRACE ? plainly(error, frames) : programs(error, frames);
  return () => {
    Error.prepareStackTrace = programs;
  };
}

/** A stack as V8 writes it with no formatter: the error, then a line per call site. */
function plainly(error: Error, frames: NodeJS.CallSite[]): string {
  let text = `${error.name}: ${error.message}`;
  for (const frame of frames) text += `\n    at ${frame}`;
  return text;
}
