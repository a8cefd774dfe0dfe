// Data-driven CLI conformance: each folder under tests/conformance/cli/ holds input files and a `script`:
//   fixture FILE              copy FILE from tests/conformance/fixtures/ (or the seed its FILE.ref names)
//                             into the case's folder
//   volumes N [DIR]           copy the case's volume files that arrive at step N (its Volumes/ folder and
//                             volumes.N lists, as in tests/conformance/engine/README.md) into the case's
//                             work folder (the database's, so the default volumes folder) or its DIR,
//                             last modified at 2026-01-01 plus N hours
//   $ ARGS...                 run cdcstudio-cli ARGS (with --db pointing at the case's fresh database)
//   exit N                    the last command's exit status
//   stdout-file FILE          the last command's stdout equals FILE (from the case folder)
//   stdout-contains TEXT      ... contains TEXT
//   stderr-contains TEXT      the last command's stderr contains TEXT
//   stderr-empty              the last command printed nothing on stderr
//   elapsed-under SECONDS     the last command took less than SECONDS
//   sqlite3 SQL               run SQL with the sqlite3 shell on the case's database (a file changed by
//                             another program: tests/conformance/cli/untrusted_*)
//   hash-save                 remember the bytes of the database file and of its -wal file (none: empty)
//   hash-same                 they are the bytes remembered
// Lines starting with '#' are comments. Every command's exit status must be checked before the next
// command (or the end of the script). Adding a case never needs C++.

#include "ConformanceFile.h"
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void conformance_data() {
        QTest::addColumn<QString>("caseDir");
        QDir root(QStringLiteral(CDC_TESTS_DIR "/conformance/cli"));
        const auto cases = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY2(!cases.isEmpty(), "no CLI conformance cases found");
        for (const auto& name : cases)
            QTest::newRow(qPrintable(name)) << root.filePath(name);
    }

    void conformance() {
        QFETCH(QString, caseDir);
        QTemporaryDir work;
        QVERIFY(work.isValid());
        QDir source(caseDir);
        for (const auto& f : source.entryList(QDir::Files))
            QVERIFY(QFile::copy(source.filePath(f), work.filePath(f)));

        QFile script(source.filePath("script"));
        QVERIFY2(script.open(QIODevice::ReadOnly | QIODevice::Text), "case has no script");
        QByteArray out, err;
        QByteArray savedHash;
        qint64 elapsedMs = 0;
        int exitCode = -1;
        int commands = 0, checks = 0;
        int lineNo = 0;
        bool exitChecked = true;
        while (!script.atEnd()) {
            const QString line = QString::fromUtf8(script.readLine()).trimmed();
            ++lineNo;
            const QString where = QStringLiteral("script:%1: ").arg(lineNo);
            if (line.isEmpty() || line.startsWith('#'))
                continue;
            if (line.startsWith("fixture ")) {
                const QString name = line.mid(8);
                const QString shared =
                    cdc::test::conformanceFile(QStringLiteral(CDC_TESTS_DIR "/conformance/fixtures"), name);
                QVERIFY2(!shared.isEmpty() && QFile::copy(shared, work.filePath(name)),
                         qPrintable(where + "missing fixture " + name));
            } else if (line.startsWith("volumes ")) {
                const QStringList words = line.mid(8).split(' ', Qt::SkipEmptyParts);
                const int step = words.value(0).toInt();
                const QString root = words.size() > 1 ? work.filePath(words[1]) : work.path();
                const QDateTime modified =
                    QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC).addSecs(step * 3600);
                QVERIFY2(step > 0 && cdc::test::copyVolumeFiles(caseDir, step, root, modified),
                         qPrintable(where + "cannot copy the volume files of step " + words.value(0)));
            } else if (line.startsWith("$ ")) {
                QVERIFY2(exitChecked,
                         qPrintable(where + "the previous command's exit status is not checked"));
                exitChecked = false;
                QStringList args = QProcess::splitCommand(line.mid(2));
                args.prepend(work.filePath("test.db"));
                args.prepend("--db");
                QProcess p;
                p.setWorkingDirectory(work.path());
                QElapsedTimer timer;
                timer.start();
                p.start(QStringLiteral(CDC_CLI_PATH), args);
                QVERIFY(p.waitForStarted());
                p.closeWriteChannel();
                QVERIFY(p.waitForFinished(120000));
                elapsedMs = timer.elapsed();
                out = p.readAllStandardOutput();
                err = p.readAllStandardError();
                exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
                ++commands;
            } else if (line.startsWith("exit ")) {
                exitChecked = true;
                QVERIFY2(
                    exitCode == line.mid(5).toInt(),
                    qPrintable(
                        where +
                        QStringLiteral("exit %1, stderr: %2").arg(exitCode).arg(QString::fromUtf8(err))));
                ++checks;
            } else if (line.startsWith("stdout-file ")) {
                QFile expected(source.filePath(line.mid(12)));
                QVERIFY2(expected.open(QIODevice::ReadOnly), qPrintable(where + "missing expected file"));
                QCOMPARE(QString::fromUtf8(out), QString::fromUtf8(expected.readAll()));
                ++checks;
            } else if (line.startsWith("stdout-contains ")) {
                QVERIFY2(out.contains(line.mid(16).toUtf8()), qPrintable(where + QString::fromUtf8(out)));
                ++checks;
            } else if (line.startsWith("stderr-contains ")) {
                QVERIFY2(err.contains(line.mid(16).toUtf8()), qPrintable(where + QString::fromUtf8(err)));
                ++checks;
            } else if (line.startsWith("elapsed-under ")) {
                QVERIFY2(elapsedMs < line.mid(14).toDouble() * 1000,
                         qPrintable(where + QStringLiteral("took %1 ms").arg(elapsedMs)));
                ++checks;
            } else if (line.startsWith("sqlite3 ")) {
                QProcess shell;
                shell.start(QStringLiteral("sqlite3"), {work.filePath("test.db"), line.mid(8)});
                QVERIFY2(shell.waitForFinished(60000) && shell.exitCode() == 0,
                         qPrintable(where + QString::fromUtf8(shell.readAllStandardError())));
            } else if (line == "hash-save" || line == "hash-same") {
                QCryptographicHash hash(QCryptographicHash::Sha256);
                for (const QString& name : {QStringLiteral("test.db"), QStringLiteral("test.db-wal")}) {
                    QFile file(work.filePath(name));
                    // A missing -wal is an empty one: a reader of a WAL file leaves an empty one behind.
                    hash.addData(name.toUtf8() + ":" +
                                 (file.open(QIODevice::ReadOnly) ? file.readAll() : ""));
                }
                if (line == "hash-save") {
                    savedHash = hash.result();
                } else {
                    QVERIFY2(!savedHash.isEmpty() && hash.result() == savedHash,
                             qPrintable(where + "the database file changed"));
                    ++checks;
                }
            } else if (line == "stderr-empty") {
                QVERIFY2(err.isEmpty(), qPrintable(where + QString::fromUtf8(err)));
                ++checks;
            } else {
                QFAIL(qPrintable(where + "unknown directive: " + line));
            }
        }
        QVERIFY2(commands > 0 && checks > 0, "a case must run a command and check something");
        QVERIFY2(exitChecked, "the last command's exit status is not checked");
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
