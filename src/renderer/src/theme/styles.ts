// The stylesheets of the design system, in cascade order: Mantine's, then the app's density, surfaces
// and focus ring on top. Imported once by main.tsx (tests render without CSS).
import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import './density.css';
import './surfaces.css';
import './focus.css';
