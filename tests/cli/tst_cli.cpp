// Data-driven CLI conformance: each folder under tests/conformance/cli/ holds input files and a `script`;
// a folder without a `script` is a catalogue of one-file cases, `NAME.case`, each a script that writes its
// own inputs with `file` blocks (tests/conformance/cli/bad-input/). Script directives:
//   fixture FILE              copy FILE from tests/conformance/fixtures/ (or the seed its FILE.ref names)
//                             into the case's folder
//   volumes N [DIR]           copy the case's volume files that arrive at step N (its Volumes/ folder and
//                             volumes.N lists, as in tests/conformance/engine/README.md) into the case's
//                             work folder (the database's, so the default volumes folder) or its DIR,
//                             last modified at 2026-01-01 plus N hours
//   file PATH ... end         write the lines up to `end` into PATH (folders made as needed); `\x{HH}` is
//                             the byte 0xHH (a NUL, a byte that is not UTF-8), `\repeat{N}{TEXT}` is TEXT
//                             N times with each `#` in it the count 1..N
//   $ ARGS...                 run cdcstudio-cli ARGS (with --db pointing at the case's fresh database)
//   exit N                    the last command's exit status
//   stdout-file FILE          the last command's stdout equals FILE (from the case folder, or the file its
//                             FILE.ref names; a one-file case's own, written by a `file` block)
//   stdout-contains TEXT      ... contains TEXT
//   stderr-contains TEXT      the last command's stderr contains TEXT
//   stderr-is TEXT            the last command's stderr is exactly the line TEXT
//   stderr-empty              the last command printed nothing on stderr
//   db-snapshot               remember the bytes of the database file and of its -wal file (their SHA-256;
//                             no -wal: empty, as a reader of a WAL file leaves an empty one behind)
//   db-unchanged              they are byte for byte as at the last db-snapshot
//   elapsed-under SECONDS     the last command took less than SECONDS
//   sqlite3 SQL               run SQL with the sqlite3 shell on the case's database (a file changed by
//                             another program: tests/conformance/cli/untrusted_*); what it prints is then
//                             the stdout the stdout- directives check
//   read PATH                 the file PATH of the work folder (one a command wrote) becomes the stdout the
//                             stdout- directives check
// Lines starting with '#' are comments. Every command's exit status must be checked before the next
// command (or the end of the script). Adding a case never needs C++.

#include "ConformanceFile.h"
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

/// A `file` block's line as bytes: `\x{HH}` escapes decoded, `\repeat{N}{TEXT}` expanded.
QByteArray fileLine(const QString& line) {
    static const QRegularExpression repeat(QStringLiteral(R"(\\repeat\{(\d+)\}\{([^}]*)\})"));
    QString expanded = line;
    for (auto m = repeat.match(expanded); m.hasMatch(); m = repeat.match(expanded)) {
        QStringList copies;
        for (int i = 1; i <= m.captured(1).toInt(); ++i)
            copies << QString(m.captured(2)).replace('#', QString::number(i));
        expanded.replace(m.capturedStart(), m.capturedLength(), copies.join(QString()));
    }
    static const QRegularExpression byte(QStringLiteral(R"(\\x\{([0-9A-Fa-f]{2})\})"));
    QByteArray out;
    qsizetype at = 0;
    for (auto it = byte.globalMatch(expanded); it.hasNext();) {
        const auto m = it.next();
        out += expanded.mid(at, m.capturedStart() - at).toUtf8();
        out += static_cast<char>(m.captured(1).toInt(nullptr, 16));
        at = m.capturedEnd();
    }
    return out + expanded.mid(at).toUtf8() + '\n';
}

/// The SHA-256 of the database file and its -wal file (a missing -wal counts as an empty one).
QByteArray databaseHash(const QDir& work) {
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString& name : {QStringLiteral("test.db"), QStringLiteral("test.db-wal")}) {
        QFile file(work.filePath(name));
        hash.addData(name.toUtf8() + ":" + (file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray()));
    }
    return hash.result().toHex();
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void conformance_data() {
        QTest::addColumn<QString>("caseDir");
        QTest::addColumn<QString>("scriptPath");
        QDir root(QStringLiteral(CDC_TESTS_DIR "/conformance/cli"));
        const auto cases = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY2(!cases.isEmpty(), "no CLI conformance cases found");
        for (const auto& name : cases) {
            const QDir dir(root.filePath(name));
            if (dir.exists("script")) {
                QTest::newRow(qPrintable(name)) << dir.path() << dir.filePath("script");
                continue;
            }
            for (const auto& file : dir.entryList({QStringLiteral("*.case")}, QDir::Files, QDir::Name))
                QTest::newRow(qPrintable(name + "/" + file.chopped(5))) << QString() << dir.filePath(file);
        }
    }

    void conformance() {
        QFETCH(QString, caseDir);
        QFETCH(QString, scriptPath);
        QTemporaryDir work;
        QVERIFY(work.isValid());
        QDir source(caseDir);
        if (!caseDir.isEmpty())
            for (const auto& f : source.entryList(QDir::Files))
                QVERIFY(QFile::copy(source.filePath(f), work.filePath(f)));

        QFile script(scriptPath);
        QVERIFY2(script.open(QIODevice::ReadOnly | QIODevice::Text), "case has no script");
        QByteArray out, err;
        qint64 elapsedMs = 0;
        int exitCode = -1;
        int commands = 0, checks = 0;
        int lineNo = 0;
        bool exitChecked = true;
        QByteArray dbSnapshot;
        while (!script.atEnd()) {
            const QString line = QString::fromUtf8(script.readLine()).trimmed();
            ++lineNo;
            const QString where = QStringLiteral("script:%1: ").arg(lineNo);
            if (line.isEmpty() || line.startsWith('#'))
                continue;
            if (line.startsWith("file ")) {
                const QString path = work.filePath(line.mid(5));
                QVERIFY(QDir().mkpath(QFileInfo(path).path()));
                QByteArray bytes;
                bool ended = false;
                while (!ended && !script.atEnd()) {
                    const QString text = QString::fromUtf8(script.readLine()).chopped(1);
                    ++lineNo;
                    ended = text == "end";
                    if (!ended)
                        bytes += fileLine(text);
                }
                QVERIFY2(ended, qPrintable(where + "a file block without its `end`"));
                QFile out(path);
                QVERIFY(out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size());
            } else if (line == "db-snapshot") {
                dbSnapshot = databaseHash(QDir(work.path()));
            } else if (line == "db-unchanged") {
                QVERIFY2(!dbSnapshot.isEmpty(), qPrintable(where + "db-unchanged before any db-snapshot"));
                QVERIFY2(databaseHash(QDir(work.path())) == dbSnapshot,
                         qPrintable(where + "the database file changed"));
                ++checks;
            } else if (line.startsWith("fixture ")) {
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
                // A folder case's expected files are in its folder; a one-file case writes them (`file`).
                QFile expected(caseDir.isEmpty() ? work.filePath(line.mid(12))
                                                 : cdc::test::conformanceFile(source.path(), line.mid(12)));
                QVERIFY2(expected.open(QIODevice::ReadOnly), qPrintable(where + "missing expected file"));
                QCOMPARE(QString::fromUtf8(out), QString::fromUtf8(expected.readAll()));
                ++checks;
            } else if (line.startsWith("stdout-contains ")) {
                QVERIFY2(out.contains(line.mid(16).toUtf8()), qPrintable(where + QString::fromUtf8(out)));
                ++checks;
            } else if (line.startsWith("stderr-contains ")) {
                QVERIFY2(err.contains(line.mid(16).toUtf8()), qPrintable(where + QString::fromUtf8(err)));
                ++checks;
            } else if (line.startsWith("stderr-is ")) {
                QCOMPARE(QString::fromUtf8(err), line.mid(10) + '\n');
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
                out = shell.readAllStandardOutput();
            } else if (line.startsWith("read ")) {
                QFile written(work.filePath(line.mid(5)));
                QVERIFY2(written.open(QIODevice::ReadOnly), qPrintable(where + "no file " + line.mid(5)));
                out = written.readAll();
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
