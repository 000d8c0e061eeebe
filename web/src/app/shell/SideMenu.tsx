import type { MouseEvent } from 'react';
import { NavList } from '@primer/react';
import { useLocation } from 'wouter';
import { MENU, isCurrentMenuItem, type MenuItem } from '../routes.ts';
import { useGateContext } from '../useGateContext.ts';

/** A plain left click navigates in-app; modified clicks keep the browser's behaviour (new tab...). */
function isPlainClick(e: MouseEvent) {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
}

/** The side menu (spec 001 §2.2): items in spec order, each shown when its gate passes. */
export function SideMenu({ className }: { className?: string }) {
  const [location, navigate] = useLocation();
  const { ctx } = useGateContext();
  const items = MENU.filter((item) => item.gate(ctx));

  const go = (item: MenuItem) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(e)) return;
    e.preventDefault();
    navigate(item.path);
  };

  return (
    <NavList aria-label="Side menu" className={className}>
      {items.map((item) => (
        <NavList.Item key={item.path} href={item.path} aria-current={isCurrentMenuItem(item, location) ? 'page' : undefined} onClick={go(item)}>
          <NavList.LeadingVisual>
            <item.icon />
          </NavList.LeadingVisual>
          {item.title}
          {item.trailing ? (
            <NavList.TrailingVisual>
              <item.trailing />
            </NavList.TrailingVisual>
          ) : null}
        </NavList.Item>
      ))}
    </NavList>
  );
}
