export {
  createFileHandles,
  type FileEntry,
  type FileHandles,
  type FileHandlesOptions,
  type FilePurpose,
} from './file-handles';
