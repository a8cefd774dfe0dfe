#pragma once
/// The signals a session ends with, as a Qt signal on the GUI thread: SIGTERM (a kill, a logout, a
/// shutdown), SIGHUP (the terminal that started the app closed) and SIGINT (Ctrl+C in it). Left to their
/// default, they end the process at once: no destructor runs, so a working copy in a RAM-backed folder
/// would hold memory until the next start, and the work since the last autosave would be lost. The handler
/// only writes the signal's number to a socket pair (what a signal handler may do); a QSocketNotifier reads
/// it on the event loop.

#include <QObject>

class QSocketNotifier;

namespace cdc::ui {

class TerminationSignals : public QObject {
    Q_OBJECT
public:
    /// Installs the handlers (one object at a time per process); the destructor restores the defaults.
    explicit TerminationSignals(QObject* parent = nullptr);
    ~TerminationSignals() override;
    TerminationSignals(const TerminationSignals&) = delete;
    TerminationSignals& operator=(const TerminationSignals&) = delete;

    /// Whether the handlers are installed (false when the socket pair could not be made).
    bool isActive() const { return m_notifier != nullptr; }

signals:
    void received(int signalNumber);

private:
    void readPending();

    QSocketNotifier* m_notifier = nullptr;
};

} // namespace cdc::ui
