import ts from 'typescript';

/** What type-checking one project gave: whether it passed, and what the compiler said about it. */
export interface ProjectCheck {
  readonly success: boolean;
  readonly output: string;
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => ts.sys.getCurrentDirectory(),
  getNewLine: () => ts.sys.newLine,
};

/**
 * Type-checks the projects of one TypeScript solution in this process, as `tsc --build` does (each after the
 * projects it references; one whose outputs are up to date is not checked again) and in one pass, so the compiler is
 * loaded and every configuration read once for all of them. Yields each project that was checked, as it is done;
 * a project not yielded was up to date.
 */
export function* checkSolution(configs: readonly string[]): Generator<{ readonly config: string } & ProjectCheck> {
  let output = '';
  const report = (diagnostic: ts.Diagnostic) => {
    output += ts.formatDiagnosticsWithColorAndContext([diagnostic], formatHost);
  };
  const host = ts.createSolutionBuilderHost(ts.sys, undefined, report, report);
  const builder = ts.createSolutionBuilder(host, [...configs], { emitDeclarationOnly: true });
  for (let project = builder.getNextInvalidatedProject(); project; project = builder.getNextInvalidatedProject()) {
    output = '';
    const status = project.done();
    yield { config: project.project, success: status === ts.ExitStatus.Success && output === '', output };
  }
}
