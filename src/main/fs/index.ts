export { writeFileAtomic } from './atomic-write';
