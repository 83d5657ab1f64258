/**
 * The largest cost of a program that declares our resources, cut. While a resource registers, the SDK
 * takes a stack trace for each of the four promises of each of its properties (`debuggablePromise` in
 * @pulumi/pulumi's runtime/debuggable) and reads its text at once, though only its promise-leak report
 * prints it, under `PULUMI_DEBUG_PROMISE_LEAKS`. Pulumi's Node runner formats every stack with
 * source-map-support, which wraps and maps each frame; a key has 17 properties (docs/performance.md).
 * For those traces only, and only while one of our constructors runs, no frame is written (even V8's
 * own text of the frames cost a program of 250 resources a quarter of a second): the text says how to
 * get them. Every other stack goes through the program's formatter as before: the resource's source
 * position (the SDK's `Resource.callsites`, formatted at once) and the error a failed registration
 * rejects with (taken during the constructor, formatted when it is read, after it).
 */

/** The SDK's function whose stack traces only its promise-leak report reads. */
const LEAK_TRACE = "debuggablePromise";

/** The text of such a trace: the leak report that would print it is off. */
const UNWRITTEN = "Error\n    (stack not written: set PULUMI_DEBUG_PROMISE_LEAKS=true to see it)";

const restoreNothing = () => {};

/**
 * Until the returned function is called, leaves the SDK's promise-debugging stack traces unwritten,
 * when the program has a formatter of its own (`Error.prepareStackTrace`) and the leak report is off;
 * otherwise changes nothing. Call it just before `super(…)` and the returned function in a `finally`.
 */
export function unwrittenLeakTraces(): () => void {
  const programs = Error.prepareStackTrace;
  if (programs === undefined || process.env.PULUMI_DEBUG_PROMISE_LEAKS) return restoreNothing;
  Error.prepareStackTrace = (error, frames) =>
    frames[0]?.getFunctionName() === LEAK_TRACE ? UNWRITTEN : programs(error, frames);
  return () => {
    Error.prepareStackTrace = programs;
  };
}
