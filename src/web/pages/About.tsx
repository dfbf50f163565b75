import { usePageMeta } from '../components/use-page-meta';
import { about } from './content';
import { StaticPage } from './StaticPage';

/** Route "/about": the story of the app. */
export default function About() {
  usePageMeta('/about');
  return (
    <StaticPage title={about.title}>
      <p className="lead">{about.lead}</p>
      {about.sections.map((s) => (
        <section key={s.heading} id={'id' in s ? s.id : undefined}>
          <h2>{s.heading}</h2>
          {s.paragraphs.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </section>
      ))}
    </StaticPage>
  );
}
