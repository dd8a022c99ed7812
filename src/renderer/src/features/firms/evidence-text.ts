import {
  EVIDENCE_LABELS,
  type EvidenceKind,
  type EvidenceView,
  type PartyView,
} from '@shared/resolution/resolution-contract';

/** One link between two spellings as the detail panel says it. */
export interface EvidenceLine {
  /** The rule that linked them ("same tax id"). */
  rule: string;
  /** What matched, in the analyst's words ("tax id 123456789", "names 96% alike"). */
  matched: string;
}

const WHAT: Partial<Record<EvidenceKind, string>> = {
  code: 'firm code',
  tax: 'tax id',
  phone: 'telephone ending',
  email: 'e-mail',
  domain: 'web domain',
};

/** How alike two names are, as a whole percentage ("96% alike"). */
export function alike(score: number): string {
  return `${Math.round(Math.max(0, Math.min(1, score)) * 100)}% alike`;
}

/** The rule and what matched, for a link of a firm's evidence or a pair of the review queue. */
export function describeEvidence(e: Pick<EvidenceView, 'kind' | 'value' | 'score'>): EvidenceLine {
  const rule = EVIDENCE_LABELS[e.kind];
  switch (e.kind) {
    case 'decision':
      return { rule, matched: 'you said they are one firm' };
    case 'name':
      return {
        rule,
        matched: `both read “${e.value}” once case, punctuation and legal forms are set aside`,
      };
    case 'similar':
      return { rule, matched: `names ${alike(e.score)}${e.value ? ` (${e.value})` : ''}` };
    case 'code':
    case 'tax':
    case 'phone':
    case 'email':
    case 'domain': {
      const what = `${WHAT[e.kind]} ${e.value}`.trim();
      // Contact details link only names that agree: how much they do is part of the evidence.
      return { rule, matched: e.score < 1 ? `${what}; names ${alike(e.score)}` : what };
    }
  }
}

/** The spellings of a firm by id, to name both ends of a link. */
export function spellingNames(spellings: readonly PartyView[]): (partyId: string) => string {
  const byId = new Map(spellings.map((s) => [s.partyId, s.name]));
  return (id) => byId.get(id) ?? 'a spelling no longer in the library';
}

/** For each spelling, the kinds of evidence that link it to the firm, strongest first. */
export function linksBySpelling(evidence: readonly EvidenceView[]): Map<string, EvidenceKind[]> {
  const out = new Map<string, EvidenceKind[]>();
  for (const e of evidence) {
    for (const id of [e.a, e.b]) {
      const kinds = out.get(id) ?? [];
      if (!kinds.includes(e.kind)) kinds.push(e.kind);
      out.set(id, kinds);
    }
  }
  return out;
}
