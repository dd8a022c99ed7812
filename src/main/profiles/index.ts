export {
  createProfileStore,
  PROFILES_FILE,
  ProfileNameTakenError,
  type NewProfile,
  type Profile,
  type ProfilePatch,
  type ProfileStore,
  type ProfileStoreLogger,
  type ProfileStoreOptions,
} from './profile-store';
