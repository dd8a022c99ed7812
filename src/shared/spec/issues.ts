/**
 * A constraint violation, located by a path a person can read (`hs_codes[2]`) and described by the
 * rule it breaks, in plain words (`digits only`).
 */
export interface SpecIssue {
  /** Dotted / indexed path of the offending field; empty for a rule about the whole request. */
  readonly path: string;
  readonly message: string;
}

export type PathSegment = string | number | symbol;

export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out;
}

/** `hs_codes[2]: digits only`, or the bare message for a whole-request rule. */
export function describeIssue(issue: SpecIssue): string {
  // A rule that already names its field ("exporter_countries needs …") reads better unprefixed.
  if (!issue.path || issue.message.startsWith(issue.path)) return issue.message;
  return `${issue.path}: ${issue.message}`;
}

export function describeIssues(issues: readonly SpecIssue[]): string {
  return issues.map(describeIssue).join('; ');
}
