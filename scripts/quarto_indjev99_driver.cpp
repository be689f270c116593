// A driver for timing indjev99's Quarto-Solver search alone on one given position.
//
// Not part of the solver: scripts/quarto_vs_indjev99.sh compiles it together with a copy of
// indjev99's src/main.cpp (public source, kept outside this repository; the copy is patched to
// the standard lines: 4 rows, 4 columns, 2 diagonals, no 2x2 squares, no torus) with
// g++ -O3. The copy is included below with its `main` renamed, so only its State, eval and evalPlace are
// used; nothing of it is reproduced here.
//
// stdin: a position in quarto's input format (4 lines of 4 cells, `.` or 4 binary digits, then
// the piece in hand as 4 binary digits). The piece's number is its attribute bits, the cell
// 4 * row + column, the same numbering in both programs.
// argv[1]: `distance` (indjev99's eval as published: the exact distance to the end) or `wdl`
// (its evalPlace with the window (-1, 1): only win, draw or loss, as quarto searches).
// stdout: one line `<win|draw|loss> <search CPU s> <search wall s> <nodes>`; the times cover the
// search alone (not reading, not the tables' allocation at start-up).

#define main indjev99_main
#include "main.cpp"
#undef main

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>

static double cpuSeconds()
{
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int fail(const char* what)
{
    std::fprintf(stderr, "quarto_indjev99_driver: %s\n", what);
    return 1;
}

int main(int argc, char** argv)
{
    if (argc != 2 || (std::strcmp(argv[1], "distance") != 0 && std::strcmp(argv[1], "wdl") != 0))
        return fail("usage: quarto_indjev99_driver distance|wdl < position");
    bool wdl = std::strcmp(argv[1], "wdl") == 0;
    if (winMasks.size() != 10) return fail("expected the 10 standard lines (is the copy patched?)");

    State state;
    for (uint16_t cell = 0; cell < 16; ++cell)
    {
        std::string token;
        if (!(std::cin >> token)) return fail("expected 16 cells");
        if (token == ".") continue;
        if (token.size() != 4) return fail("a cell is `.` or 4 binary digits");
        uint16_t piece = std::stoi(token, nullptr, 2);
        if (!state.isPieceFree(piece)) return fail("a piece twice");
        state.moveSelect(piece);
        state.movePlace(cell);
    }
    std::string hand;
    if (!(std::cin >> hand) || hand.size() != 4) return fail("expected the piece in hand");
    uint16_t piece = std::stoi(hand, nullptr, 2);
    if (!state.isPieceFree(piece)) return fail("the piece in hand is on the board");
    state.moveSelect(piece);

    double cpu = cpuSeconds();
    auto wall = std::chrono::steady_clock::now();
    int16_t value;
    if (!wdl || state.isWon() || checkWinInOne(state) || state.movesLeft <= 2)
    {
        value = eval(state);
    }
    else
    {
        totalEvalStates = 0;
        value = evalPlace(state, -1, 1);
    }
    double cpuSpent = cpuSeconds() - cpu;
    double wallSpent =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
    const char* word = value > 0 ? "win" : value < 0 ? "loss" : "draw";
    std::printf("%s %.6f %.6f %llu\n", word, cpuSpent, wallSpent,
                (unsigned long long) totalEvalStates);
    return 0;
}
