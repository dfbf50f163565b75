import { usePageMeta } from '../components/use-page-meta';
import { faq } from './content';
import { StaticPage } from './StaticPage';

/** Route "/faq": questions and answers. */
export default function Faq() {
  usePageMeta('/faq');
  return (
    <StaticPage title={faq.title}>
      <dl className="faq">
        {faq.items.map((item) => (
          <div key={item.q} className="faq-item">
            <dt>{item.q}</dt>
            <dd>{item.a}</dd>
          </div>
        ))}
      </dl>
    </StaticPage>
  );
}
