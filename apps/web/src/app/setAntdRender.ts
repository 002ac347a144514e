import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { createRoot, type Root } from 'react-dom/client';

type RootHolder = Element & { __pipwiseRoot?: Root };

/** React 19 has no ReactDOM.render: antd-mobile's Toast and Dialog render through createRoot. */
unstableSetRender((node, container) => {
  const holder = container as RootHolder;
  const root = (holder.__pipwiseRoot ??= createRoot(container));
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    delete holder.__pipwiseRoot;
  };
});
