import { Component, type ErrorInfo, type ReactNode } from 'react';
import { RENDERER_ERROR_LIMITS } from '#shared/bridge/wire';

/** What goes to the main log (through the bridge) when a screen fails to render. */
export interface RendererErrorReport {
  readonly screen: string;
  readonly message: string;
  readonly stack?: string;
  readonly componentStack?: string;
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** The report of an error, each part cut to the bound main accepts. */
export function rendererErrorReport(
  screen: string,
  error: unknown,
  componentStack?: string | null,
): RendererErrorReport {
  const message =
    error instanceof Error ? `${error.name}: ${error.message}` : `Thrown: ${String(error)}`;
  const stack = error instanceof Error ? error.stack : undefined;
  return {
    screen: cut(screen, RENDERER_ERROR_LIMITS.screen),
    message: cut(message, RENDERER_ERROR_LIMITS.message),
    ...(stack ? { stack: cut(stack, RENDERER_ERROR_LIMITS.stack) } : {}),
    ...(componentStack
      ? { componentStack: cut(componentStack, RENDERER_ERROR_LIMITS.componentStack) }
      : {}),
  };
}

interface Props {
  /** Which screen this guards (the route), for the log. */
  readonly screen: string;
  readonly onError: (report: RendererErrorReport) => void;
  readonly children: ReactNode;
}

interface State {
  readonly failed: boolean;
  /** Bumped by "Reload this screen", so that the screen mounts afresh. */
  readonly generation: number;
}

/**
 * A screen that throws while rendering shows what happened and a way back, instead of blanking
 * the till; the rest of the app (the header, the open sale held above) stays. React catches
 * render errors only in a class component, so this is one.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, generation: 0 };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    try {
      this.props.onError(rendererErrorReport(this.props.screen, error, info.componentStack));
    } catch {
      // Reporting must never be the second failure on the page.
    }
  }

  private readonly reload = (): void => {
    this.setState((state) => ({ failed: false, generation: state.generation + 1 }));
  };

  override render(): ReactNode {
    if (this.state.failed) {
      return (
        <section
          className="screen panel screen-error"
          role="alert"
          aria-labelledby="screen-error-heading"
          data-testid="screen-error"
        >
          <h2 id="screen-error-heading">This screen hit a problem</h2>
          <p>
            Something on this screen could not be shown. Sales and payments are safe: they are kept
            by the till service, not by this screen. The problem was written to the till&apos;s log.
          </p>
          <button type="button" className="button primary" onClick={this.reload}>
            Reload this screen
          </button>
        </section>
      );
    }
    return <ScreenGeneration key={this.state.generation}>{this.props.children}</ScreenGeneration>;
  }
}

/** A keyed wrapper: a new key remounts the screen below it, fresh state and all. */
function ScreenGeneration({ children }: { readonly children: ReactNode }) {
  return <>{children}</>;
}
