import { z } from 'zod';
import { defineCall } from '../define-call';

/**
 * Firm resolution: the parties of the library (a name, a country and a UrlCode as written) grouped into
 * the firms analysts mean, with the evidence for each group, a queue of uncertain pairs, and the
 * analyst's decisions, which can be exported and imported as an alias list.
 */

/** Kinds of evidence, strongest first. */
export const EVIDENCE_KINDS = [
  'decision',
  'code',
  'tax',
  'phone',
  'email',
  'domain',
  'name',
  'similar',
] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** How the evidence reads in a list ("same tax id"). */
export const EVIDENCE_LABELS: Record<EvidenceKind, string> = {
  decision: 'your decision',
  code: 'same firm code',
  tax: 'same tax id',
  phone: 'same telephone',
  email: 'same e-mail',
  domain: 'same web domain',
  name: 'same name',
  similar: 'similar name',
};

export interface ResolutionStatus {
  /** Null before the first resolution. */
  resolvedAt: string | null;
  parties: number;
  firms: number;
  /** Firms written more than one way. */
  merged: number;
  review: number;
  decisions: number;
  /** How long the last resolution took (ms). */
  ms: number;
}

/** A dataset, or the whole library when absent. */
export const scopeSchema = z.strictObject({ datasetId: z.string().min(1).max(200).optional() });
export type FirmScope = z.output<typeof scopeSchema>;

/** One spelling of a firm as the records carry it. */
export interface PartyView {
  partyId: string;
  name: string;
  /** The party's country as compared: its ISO code, or the country name upper-cased when no code. */
  country: string;
  /** The country's name as written, when known. */
  countryName: string | null;
  /** UrlCode, "" when the records have none (files from other tools). */
  code: string;
  firmId: string;
  /** Rows naming this party in the scope, by role (firm lists count as `listed`). */
  asImporter: number;
  asExporter: number;
  listed: number;
}

export interface FirmSummaryView {
  firmId: string;
  /** The spelling with the most rows. */
  name: string;
  country: string;
  countryName: string | null;
  spellings: number;
  /** Rows naming the firm in the scope, by role. */
  asImporter: number;
  asExporter: number;
  listed: number;
  /** The kinds of evidence that joined its spellings, strongest first. */
  evidence: EvidenceKind[];
}

export interface FirmListView {
  firms: FirmSummaryView[];
  /** Firms matching the query in the scope. */
  total: number;
  status: ResolutionStatus;
}

export interface EvidenceView {
  a: string;
  b: string;
  kind: EvidenceKind;
  /** The shared value (a tax id, a telephone's digits, the two names compared, a decision's id). */
  value: string;
  /** 1 for shared values; for names and contact details how alike the names are (0..1). */
  score: number;
}

export interface ReviewPairView {
  a: PartyView;
  b: PartyView;
  /** What suggests they are one firm. */
  kind: EvidenceKind;
  value: string;
  score: number;
  /** Why they were not joined ("similar names", "different tax ids", "same telephone, names differ"). */
  reason: string;
}

/** A shipment dataset of the scope with rows naming the firm, in either role. */
export interface FirmDatasetView {
  datasetId: string;
  name: string;
  /** When the dataset was saved (ISO), to tell apart datasets of one name. */
  fetchedAt: string;
  /** Rows whose importer or exporter is one of the firm's spellings. */
  rows: number;
}

export interface FirmDetailView {
  firm: FirmSummaryView;
  spellings: PartyView[];
  /** The shipment datasets of the scope naming the firm, most rows first: where its shipments open. */
  datasets: FirmDatasetView[];
  evidence: EvidenceView[];
  /** Open review pairs with one side in this firm. */
  review: ReviewPairView[];
  /** The analyst's decisions naming one of its spellings. */
  decisions: DecisionView[];
}

export interface ReviewListView {
  pairs: ReviewPairView[];
  total: number;
}

/** A party as an alias list names it: names and codes only. */
export const partyRefSchema = z.strictObject({
  country: z.string().max(200),
  name: z.string().max(1000),
  code: z.string().max(200),
});
export type PartyRef = z.output<typeof partyRefSchema>;

export type Verdict = 'same' | 'different';

export interface DecisionView {
  id: string;
  verdict: Verdict;
  a: PartyRef;
  b: PartyRef;
  decidedAt: string;
}

export const ALIAS_FILE_FORMAT = 'portolan-firm-aliases';
export const ALIAS_FILE_VERSION = 1;

/** The alias list as a file: the analyst's decisions, names and codes only, no records. */
export const aliasFileSchema = z.object({
  format: z.literal(ALIAS_FILE_FORMAT),
  version: z.literal(ALIAS_FILE_VERSION),
  exportedAt: z.string().max(100).optional(),
  decisions: z
    .array(
      z.object({
        verdict: z.enum(['same', 'different']),
        a: partyRefSchema,
        b: partyRefSchema,
        decidedAt: z.string().max(100).optional(),
      }),
    )
    .max(100_000),
});
export type AliasFile = z.output<typeof aliasFileSchema>;

export interface AliasImportView {
  added: number;
  /** Decisions the library already had. */
  already: number;
  status: ResolutionStatus;
}

const id = z.string().min(1).max(200);
export const FIRM_SORTS = ['rows', 'name', 'spellings'] as const;
export type FirmSort = (typeof FIRM_SORTS)[number];

export const firmListInputSchema = z.strictObject({
  scope: scopeSchema.default({}),
  search: z.string().max(200).optional(),
  /** Only firms written more than one way. */
  mergedOnly: z.boolean().default(false),
  sort: z.enum(FIRM_SORTS).default('rows'),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(1000).default(100),
});
export type FirmListInput = z.output<typeof firmListInputSchema>;

export const resolutionCalls = {
  'resolution.status': defineCall<ResolutionStatus>()(z.undefined()),
  /** Resolves again if the library or the decisions changed since the last resolution. */
  'resolution.run': defineCall<ResolutionStatus>()(
    z.strictObject({ force: z.boolean().default(false) }).optional(),
  ),
  'resolution.firms': defineCall<FirmListView>()(firmListInputSchema),
  'resolution.firm': defineCall<FirmDetailView>()(
    z.strictObject({ firmId: id, scope: scopeSchema.default({}) }),
  ),
  'resolution.review': defineCall<ReviewListView>()(
    z.strictObject({
      scope: scopeSchema.default({}),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(1000).default(50),
    }),
  ),
  /** The analyst's verdict on two spellings: one firm, or two. */
  'resolution.decide': defineCall<ResolutionStatus>()(
    z.strictObject({ verdict: z.enum(['same', 'different']), a: id, b: id }),
  ),
  /** Makes the given firms one. */
  'resolution.merge': defineCall<ResolutionStatus>()(
    z.strictObject({ firmIds: z.array(id).min(2).max(100) }),
  ),
  /** Takes the given spellings out of their firm into a firm of their own. */
  'resolution.split': defineCall<ResolutionStatus>()(
    z.strictObject({ firmId: id, partyIds: z.array(id).min(1).max(1000) }),
  ),
  'resolution.decisions': defineCall<DecisionView[]>()(z.undefined()),
  'resolution.undo': defineCall<ResolutionStatus>()(z.strictObject({ decisionId: id })),
  /** The alias list as JSON text, for the window to save as a file. */
  'resolution.exportAliases': defineCall<string>()(z.undefined()),
  'resolution.importAliases': defineCall<AliasImportView>()(
    z.strictObject({ text: z.string().max(50_000_000) }),
  ),
};

/** Main announces a new resolution: after a decision, an alias import, or a resolution the library's changes started. */
export interface ResolutionEvents {
  'resolution.changed': ResolutionStatus;
}
