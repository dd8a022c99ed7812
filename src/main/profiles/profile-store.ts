import { randomUUID } from 'node:crypto';
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isProfileNameTaken, profileNameKey } from '@shared/profiles/profile-rules';
import { writeFileAtomic } from '../fs';

/** Profile metadata as stored. Holds no key and no secret: those live in the SecretStore. */
export interface Profile {
  id: string;
  name: string;
  baseUrl: string;
  accountName: string;
  demo: boolean;
  createdAt: string;
  updatedAt: string;
}

export type NewProfile = Pick<Profile, 'name' | 'baseUrl' | 'accountName'> & { demo?: boolean };
export type ProfilePatch = Partial<Pick<Profile, 'name' | 'baseUrl' | 'accountName'>>;

export interface ProfileStoreLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface ProfileStore {
  list(): Promise<Profile[]>;
  get(id: string): Promise<Profile | null>;
  /** Rejects with ProfileNameTakenError when the name is taken. */
  create(input: NewProfile): Promise<Profile>;
  /** Null when no profile has that id; ProfileNameTakenError when it would take another profile's name. */
  update(id: string, patch: ProfilePatch): Promise<Profile | null>;
  /** False when no profile has that id. The active id moves to the first remaining profile. */
  remove(id: string): Promise<boolean>;
  getActiveId(): Promise<string | null>;
  /** False when no profile has that id. */
  setActiveId(id: string | null): Promise<boolean>;
}

export const PROFILES_FILE = 'profiles.json';

/** Thrown by create and update when another profile already has the name (compared as profileNameKey). */
export class ProfileNameTakenError extends Error {
  constructor(readonly profileName: string) {
    super(`Another connection profile is already named "${profileName}".`);
    this.name = 'ProfileNameTakenError';
  }
}

const profileSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string(),
  baseUrl: z.string(),
  accountName: z.string(),
  demo: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const fileSchema = z.strictObject({
  version: z.literal(1),
  activeId: z.string().nullable(),
  profiles: z.array(profileSchema),
});
type FileShape = z.infer<typeof fileSchema>;

const empty = (): FileShape => ({ version: 1, activeId: null, profiles: [] });

export interface ProfileStoreOptions {
  dataDir: string;
  logger: ProfileStoreLogger;
  now?: () => Date;
}

/**
 * Profiles in `<dataDir>/profiles.json`. Read once and validated; a file that does not validate is kept
 * aside as `profiles.json.corrupt-<ts>` and the app starts with no profiles rather than crashing.
 * Every change is written atomically, and changes are serialised so concurrent calls cannot lose one another.
 */
export function createProfileStore({
  dataDir,
  logger,
  now = () => new Date(),
}: ProfileStoreOptions): ProfileStore {
  const path = join(dataDir, PROFILES_FILE);
  let state: Promise<FileShape> | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  async function load(): Promise<FileShape> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return empty();
      throw e;
    }
    let problem: string;
    try {
      const parsed = fileSchema.safeParse(JSON.parse(text));
      if (parsed.success) {
        const ids = new Set(parsed.data.profiles.map((p) => p.id));
        if (ids.size === parsed.data.profiles.length) {
          const data = parsed.data;
          if (data.activeId !== null && !ids.has(data.activeId)) data.activeId = data.profiles[0]?.id ?? null;
          return data;
        }
        problem = 'duplicate profile ids';
      } else {
        problem = parsed.error.issues
          .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
          .join('; ')
          .slice(0, 500);
      }
    } catch (e) {
      problem = `not JSON: ${(e as Error).message}`;
    }
    const aside = `${path}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`;
    await copyFile(path, aside);
    logger.warn('profiles file is corrupt; kept a copy and started with no profiles', {
      file: aside,
      problem,
    });
    return empty();
  }

  const current = () =>
    (state ??= load().catch((e: unknown) => {
      state = null; // a transient read error must not poison every later call
      throw e;
    }));

  /** Runs one read-modify-write at a time; the in-memory state changes only after the write succeeded. */
  function mutate<T>(change: (draft: FileShape) => T): Promise<T> {
    const run = queue.then(async () => {
      const before = await current();
      const draft = structuredClone(before);
      const result = change(draft);
      await writeFileAtomic(path, `${JSON.stringify(draft, null, 2)}\n`);
      state = Promise.resolve(draft);
      return result;
    });
    queue = run.catch(() => undefined);
    return run;
  }

  const stamp = () => now().toISOString();

  return {
    async list() {
      return structuredClone((await current()).profiles);
    },
    async get(id) {
      const p = (await current()).profiles.find((x) => x.id === id);
      return p ? { ...p } : null;
    },
    create(input) {
      return mutate((d) => {
        // Checked inside the serialised change, so two creates racing cannot both take one name.
        if (isProfileNameTaken(input.name, d.profiles)) throw new ProfileNameTakenError(input.name);
        const at = stamp();
        const p: Profile = {
          id: randomUUID(),
          name: input.name,
          baseUrl: input.baseUrl,
          accountName: input.accountName,
          demo: input.demo ?? false,
          createdAt: at,
          updatedAt: at,
        };
        d.profiles.push(p);
        d.activeId ??= p.id;
        return { ...p };
      });
    },
    update(id, patch) {
      return mutate((d) => {
        const p = d.profiles.find((x) => x.id === id);
        if (!p) return null;
        // Only a real rename is checked: files from before names were unique may hold duplicates,
        // and those profiles must stay editable.
        if (
          patch.name !== undefined &&
          profileNameKey(patch.name) !== profileNameKey(p.name) &&
          isProfileNameTaken(patch.name, d.profiles, id)
        ) {
          throw new ProfileNameTakenError(patch.name);
        }
        if (patch.name !== undefined) p.name = patch.name;
        if (patch.baseUrl !== undefined) p.baseUrl = patch.baseUrl;
        if (patch.accountName !== undefined) p.accountName = patch.accountName;
        p.updatedAt = stamp();
        return { ...p };
      });
    },
    remove(id) {
      return mutate((d) => {
        const before = d.profiles.length;
        d.profiles = d.profiles.filter((x) => x.id !== id);
        if (d.activeId === id) d.activeId = d.profiles[0]?.id ?? null;
        return d.profiles.length !== before;
      });
    },
    async getActiveId() {
      return (await current()).activeId;
    },
    setActiveId(id) {
      return mutate((d) => {
        if (id !== null && !d.profiles.some((x) => x.id === id)) return false;
        d.activeId = id;
        return true;
      });
    },
  };
}
