import { UsageError } from "./exit-codes";

export function oneArg(args: string[], name: string): string {
  if (args.length !== 1) throw new UsageError(`expected one ${name}`);
  return args[0]!;
}

export function noArgs(args: string[]): void {
  if (args.length > 0) throw new UsageError(`unexpected argument ${args[0]}`);
}
