#!/usr/bin/env node
// `npm run typecheck` after `tsc -b` has built the packages and the server: type-checks every other
// TypeScript project (no output), as `tsc -p <project> --noEmit` would, in one process. The projects
// share the declaration files they read (TypeScript's own libraries, Node's, React's, antd's), which
// `tsc -p` parsed again in each of its 12 processes (docs/benchmarks.md, "CI runs").
// Arguments: the projects' folders. Exit 1 when any project has an error.
import path from 'node:path';
import ts from 'typescript';

const projects = process.argv.slice(2);
if (projects.length === 0) {
  process.stderr.write('usage: node scripts/typecheck.mjs <project folder>...\n');
  process.exit(2);
}

/**
 * Parsed files by name, language version and module kind: a file two projects read alike is parsed
 * once. A SourceFile holds no checker state, and TypeScript's language service shares them between
 * projects in the same way (its DocumentRegistry).
 */
const parsed = new Map();

/** A compiler host for `options` whose source files come from the shared cache. */
function sharedHost(options) {
  const host = ts.createCompilerHost(options);
  // The options that change how a file parses (its module detection, JSX), beside what the host is told.
  const parsing = [options.target, options.module, options.moduleDetection, options.jsx].join('/');
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    const version =
      typeof languageVersionOrOptions === 'object'
        ? `${languageVersionOrOptions.languageVersion}/${languageVersionOrOptions.impliedNodeFormat ?? ''}`
        : String(languageVersionOrOptions);
    const key = `${fileName}\0${version}\0${parsing}`;
    if (!shouldCreate && parsed.has(key)) return parsed.get(key);
    const file = read(fileName, languageVersionOrOptions, onError, shouldCreate);
    if (file) parsed.set(key, file);
    return file;
  };
  return host;
}

const format = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => '\n',
};

let failed = 0;
for (const project of projects) {
  const started = performance.now();
  const configFile = path.resolve(project, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configFile,
    { noEmit: true },
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => report([diagnostic]) },
  );
  if (!config) {
    failed += 1;
    continue;
  }
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences,
    host: sharedHost(config.options),
    configFileParsingDiagnostics: config.errors,
  });
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
  const errors = diagnostics.filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) failed += 1;
  report(diagnostics);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`${project}: ${config.fileNames.length} files, ${errors.length} errors, ${seconds} s\n`);
}
process.exit(failed > 0 ? 1 : 0);

function report(diagnostics) {
  if (diagnostics.length === 0) return;
  const text = process.stdout.isTTY
    ? ts.formatDiagnosticsWithColorAndContext(diagnostics, format)
    : ts.formatDiagnostics(diagnostics, format);
  process.stdout.write(text);
}
