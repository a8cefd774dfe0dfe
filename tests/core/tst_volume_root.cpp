// VolumeRoot: which volume paths are read, where they lead, and which are refused with which code. The
// folder is built fresh for each row: Volumes/main/s/v/ with a file, a folder, a hidden file, a symbolic
// link that stays inside and two that leave it (to a file and a folder beside the project's folder).

#include "core/common/VolumeRoot.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

using namespace cdc;
namespace fs = std::filesystem;

class TestVolumeRoot : public QObject {
    Q_OBJECT

private slots:
    void resolve_data();
    void resolve();
    void list();
    void withoutFolder();
};

namespace {

/// The folder every row reads from.
fs::path makeFolder(const QTemporaryDir& dir) {
    const fs::path root = dir.path().toStdString() + "/project";
    const fs::path volume = root / "Volumes/main/s/v";
    fs::create_directories(volume / "sub");
    std::ofstream(volume / "a.csv") << "id\n1\n";
    std::ofstream(volume / "_hidden.csv") << "id\n";
    std::ofstream(fs::path(dir.path().toStdString()) / "outside.csv") << "secret\n";
    fs::create_directories(fs::path(dir.path().toStdString()) / "elsewhere");
    fs::create_symlink(volume / "a.csv", volume / "inside_link.csv");
    fs::create_symlink(fs::path(dir.path().toStdString()) / "outside.csv", volume / "up_link.csv");
    fs::create_symlink(fs::path(dir.path().toStdString()) / "elsewhere", volume / "away");
    return root;
}

} // namespace

void TestVolumeRoot::resolve_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected"); // the path under the folder, or the error code
    QTest::newRow("file") << "/Volumes/main/s/v/a.csv"
                          << "Volumes/main/s/v/a.csv";
    QTest::newRow("folder with slash") << "/Volumes/main/s/v/"
                                       << "Volumes/main/s/v";
    QTest::newRow("dbfs prefix") << "dbfs:/Volumes/main/s/v/a.csv"
                                 << "Volumes/main/s/v/a.csv";
    QTest::newRow("link inside") << "/Volumes/main/s/v/inside_link.csv"
                                 << "Volumes/main/s/v/inside_link.csv";
    QTest::newRow("dot dot") << "/Volumes/main/s/v/../../../../outside.csv"
                             << "PATH_OUTSIDE_VOLUMES";
    QTest::newRow("dot dot staying inside") << "/Volumes/main/s/v/sub/../a.csv"
                                            << "PATH_OUTSIDE_VOLUMES";
    QTest::newRow("absolute elsewhere") << "/etc/passwd"
                                        << "PATH_OUTSIDE_VOLUMES";
    QTest::newRow("relative") << "Volumes/main/s/v/a.csv"
                              << "PATH_OUTSIDE_VOLUMES";
    QTest::newRow("link to a file outside") << "/Volumes/main/s/v/up_link.csv"
                                            << "PATH_OUTSIDE_VOLUMES";
    QTest::newRow("link to a folder outside") << "/Volumes/main/s/v/away/"
                                              << "PATH_OUTSIDE_VOLUMES";
    QTest::newRow("no volume") << "/Volumes/main/s"
                               << "INVALID_VOLUME_PATH";
    QTest::newRow("missing") << "/Volumes/main/s/v/b.csv"
                             << "PATH_NOT_FOUND";
}

void TestVolumeRoot::resolve() {
    QFETCH(QString, path);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const fs::path root = makeFolder(dir);
    const SourceLocation at{"p.sql", 3, 7, 40, 10};
    auto local = VolumeRoot(root).resolve(path.toStdString(), at);
    if (expected.startsWith("Volumes/")) {
        QVERIFY2(local.ok(), local.ok() ? "" : local.error().format().c_str());
        QCOMPARE(QString::fromStdString(local->lexically_relative(root).lexically_normal().string()),
                 expected);
    } else {
        QVERIFY(!local.ok());
        QCOMPARE(QString::fromStdString(local.error().code), expected);
        QCOMPARE(local.error().location, at); // the path literal's position
    }
}

void TestVolumeRoot::list() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const VolumeRoot volumes(makeFolder(dir));
    // A folder whose entries include links out of the folder is refused as a whole.
    QCOMPARE(QString::fromStdString(volumes.list("/Volumes/main/s/v/").error().code),
             QString("PATH_OUTSIDE_VOLUMES"));
    fs::remove(volumes.folder() / "Volumes/main/s/v/up_link.csv");
    fs::remove(volumes.folder() / "Volumes/main/s/v/away");
    auto entries = volumes.list("/Volumes/main/s/v");
    QVERIFY2(entries.ok(), entries.ok() ? "" : entries.error().format().c_str());
    QStringList names;
    for (const auto& e : *entries)
        names << QString::fromStdString(e.path + " " + e.name + " " + std::to_string(e.size));
    // Sorted by name, `_` and `.` files left out, folders with a slash.
    QCOMPARE(names, QStringList({"/Volumes/main/s/v/a.csv a.csv 5",
                                 "/Volumes/main/s/v/inside_link.csv inside_link.csv 5",
                                 "/Volumes/main/s/v/sub/ sub/ 0"}));
    auto one = volumes.list("/Volumes/main/s/v/a.csv");
    QVERIFY(one.ok());
    QCOMPARE(one->size(), 1u);
    QCOMPARE(QString::fromStdString(one->front().name), QString("a.csv"));
}

void TestVolumeRoot::withoutFolder() {
    auto local = VolumeRoot().resolve("/Volumes/main/s/v/a.csv");
    QVERIFY(!local.ok());
    QCOMPARE(QString::fromStdString(local.error().code), QString("VOLUMES_FOLDER_NOT_SET"));
    QCOMPARE(QString::fromStdString(timestampText(1'790'000'000'000'000)), QString("2026-09-21 14:13:20"));
    QCOMPARE(QString::fromStdString(timestampText(1'790'000'000'250'000)),
             QString("2026-09-21 14:13:20.250000"));
}

QTEST_GUILESS_MAIN(TestVolumeRoot)
#include "tst_volume_root.moc"
