/**
 * The vitest plugin imports the worker's main module again for every call into the worker (each `SELF.fetch`, queue
 * batch and Durable Object call): Vite's module runner asks the vitest process over the pool's WebSocket whether its
 * copy is still current, about 14,500 round trips in the Workers lane. Nothing changes the sources during `vitest run`,
 * so an import of a module this runtime has already evaluated answers with that module at once.
 */
interface EvaluatedModule {
  evaluated: boolean;
  promise?: Promise<unknown>;
}
interface ModuleRunner {
  import(url: string): Promise<unknown>;
  evaluatedModules: { getModuleByUrl(url: string): EvaluatedModule | undefined };
}
const runner = (globalThis as { __vitest_mocker__?: { moduleRunner?: ModuleRunner } }).__vitest_mocker__?.moduleRunner;
const patched = Symbol.for("collect-edge.evaluated-imports");
if (!runner) throw new Error("vitest's module runner is not where test/support/workers/main-module-cache.ts expects it");
if (!(patched in runner)) {
  const fetched = runner.import.bind(runner);
  runner.import = (url) => {
    const module = runner.evaluatedModules.getModuleByUrl(url);
    return module?.evaluated && module.promise ? module.promise : fetched(url);
  };
  Object.assign(runner, { [patched]: true });
}
