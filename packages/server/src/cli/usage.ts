import { parseArgs, type ParseArgsConfig } from 'node:util'

/**
 * Every command answers `--help` (or `-h`) with its usage on stdout and exit code 0, before it
 * reads a file, opens a database or loads the configuration; a call it cannot understand gets the
 * usage on stderr and exit code 2, never a stack trace.
 */
export function answerHelp(usage: string, args: readonly string[] = process.argv.slice(2)): void {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage)
    process.exit(0)
  }
}

export function usageError(usage: string, problem?: string): never {
  if (problem) console.error(problem)
  console.error(usage)
  process.exit(2)
}

/** node:util's parseArgs with the help answer first and a usage error instead of a throw. */
export function parseCliArgs<T extends ParseArgsConfig>(
  usage: string,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  answerHelp(usage, config.args ?? process.argv.slice(2))
  try {
    return parseArgs(config)
  } catch (err) {
    return usageError(usage, err instanceof Error ? err.message : String(err))
  }
}
