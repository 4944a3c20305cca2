/* The ovni 1.14 event table: every MCV the emulator knows and the payload
 * its signature declares. Written by hand from
 * ../shared/specs/ovni-events-1.14.md (365 events); keep sorted by MCV bytes
 * (the lookup is a binary search). `payload` is the byte size of the normal
 * payload (0, 4, 8, 12 or 16), or OVNI_EV_JUMBO_SIG for `+` events whose
 * arguments travel as jumbo data; `args` the signature's argument types
 * and names (the 28 events that have arguments).
 *
 * The last column is what ovniemu 1.14's handler does with the payload,
 * read from its source (src/emu/<model>/event.c): only 26 events' handlers
 * read a payload at all, and the stream checks judge each event by this
 * column alone (ovni.obs.payload-size, ovni.obs.payload-signature):
 *   ANY       the handler never reads it (every event of the mpi, tampi,
 *             nodes and kernel models, and most of the others);
 *   MIN(n)    reads the first n bytes, refuses fewer (OHx: its cpu only;
 *             6Tx 6Te 6Tp 6Tr, PPx PPe, PQx PQe: the task or type id; VT*:
 *             task id and body id, or task id and type id);
 *   EXACT(n)  refuses any other size (OAs 4, OAr 8, OM[ OM] OM= 12; the
 *             creates 6Tc and PPc 8);
 *   JUMBO(n)  refuses a normal event; reads n bytes of the jumbo data
 *             without checking that they are there (the xYc/POc type id;
 *             VWC's data is checked against the nOS-V counters instead). */
#include "events.h"

#include <stdio.h>
#include <string.h>

#define ANY OVNI_EMU_ANY, 0
#define MIN(n) OVNI_EMU_MIN, n
#define EXACT(n) OVNI_EMU_EXACT, n
#define JUMBO(n) OVNI_EMU_JUMBO, n

static const ovni_evspec table[] = {
	{"6BB", 0, NULL, ANY}, /* 6BB */
	{"6BF", 0, NULL, ANY}, /* 6BF */
	{"6BU", 0, NULL, ANY}, /* 6BU */
	{"6BW", 0, NULL, ANY}, /* 6BW */
	{"6Bb", 0, NULL, ANY}, /* 6Bb */
	{"6Bf", 0, NULL, ANY}, /* 6Bf */
	{"6Bu", 0, NULL, ANY}, /* 6Bu */
	{"6Bw", 0, NULL, ANY}, /* 6Bw */
	{"6C[", 0, NULL, ANY}, /* 6C[ */
	{"6C]", 0, NULL, ANY}, /* 6C] */
	{"6DR", 0, NULL, ANY}, /* 6DR */
	{"6DU", 0, NULL, ANY}, /* 6DU */
	{"6Dr", 0, NULL, ANY}, /* 6Dr */
	{"6Du", 0, NULL, ANY}, /* 6Du */
	{"6F[", 0, NULL, ANY}, /* 6F[ */
	{"6F]", 0, NULL, ANY}, /* 6F] */
	{"6HE", 0, NULL, ANY}, /* 6HE */
	{"6HL", 0, NULL, ANY}, /* 6HL */
	{"6HM", 0, NULL, ANY}, /* 6HM */
	{"6HW", 0, NULL, ANY}, /* 6HW */
	{"6He", 0, NULL, ANY}, /* 6He */
	{"6Hl", 0, NULL, ANY}, /* 6Hl */
	{"6Hm", 0, NULL, ANY}, /* 6Hm */
	{"6Hw", 0, NULL, ANY}, /* 6Hw */
	{"6MA", 0, NULL, ANY}, /* 6MA */
	{"6MF", 0, NULL, ANY}, /* 6MF */
	{"6Ma", 0, NULL, ANY}, /* 6Ma */
	{"6Mf", 0, NULL, ANY}, /* 6Mf */
	{"6O[", 0, NULL, ANY}, /* 6O[ */
	{"6O]", 0, NULL, ANY}, /* 6O] */
	{"6Pa", 0, NULL, ANY}, /* 6Pa */
	{"6Pp", 0, NULL, ANY}, /* 6Pp */
	{"6Pr", 0, NULL, ANY}, /* 6Pr */
	{"6S@", 0, NULL, ANY}, /* 6S@ */
	{"6SA", 0, NULL, ANY}, /* 6SA */
	{"6SP", 0, NULL, ANY}, /* 6SP */
	{"6S[", 0, NULL, ANY}, /* 6S[ */
	{"6S]", 0, NULL, ANY}, /* 6S] */
	{"6Sa", 0, NULL, ANY}, /* 6Sa */
	{"6Sp", 0, NULL, ANY}, /* 6Sp */
	{"6Sr", 0, NULL, ANY}, /* 6Sr */
	{"6Ss", 0, NULL, ANY}, /* 6Ss */
	{"6Tc", 8, "u32 taskid, u32 typeid", EXACT(8)}, /* 6Tc(u32 taskid, u32 typeid) */
	{"6Te", 4, "u32 taskid", MIN(4)}, /* 6Te(u32 taskid) */
	{"6Tp", 4, "u32 taskid", MIN(4)}, /* 6Tp(u32 taskid) */
	{"6Tr", 4, "u32 taskid", MIN(4)}, /* 6Tr(u32 taskid) */
	{"6Tx", 4, "u32 taskid", MIN(4)}, /* 6Tx(u32 taskid) */
	{"6U[", 0, NULL, ANY}, /* 6U[ */
	{"6U]", 0, NULL, ANY}, /* 6U] */
	{"6W*", 0, NULL, ANY}, /* 6W* */
	{"6WG", 0, NULL, ANY}, /* 6WG */
	{"6WM", 0, NULL, ANY}, /* 6WM */
	{"6WR", 0, NULL, ANY}, /* 6WR */
	{"6WS", 0, NULL, ANY}, /* 6WS */
	{"6WT", 0, NULL, ANY}, /* 6WT */
	{"6WW", 0, NULL, ANY}, /* 6WW */
	{"6W[", 0, NULL, ANY}, /* 6W[ */
	{"6W]", 0, NULL, ANY}, /* 6W] */
	{"6Wg", 0, NULL, ANY}, /* 6Wg */
	{"6Wm", 0, NULL, ANY}, /* 6Wm */
	{"6Wr", 0, NULL, ANY}, /* 6Wr */
	{"6Ws", 0, NULL, ANY}, /* 6Ws */
	{"6Wt", 0, NULL, ANY}, /* 6Wt */
	{"6Ww", 0, NULL, ANY}, /* 6Ww */
	{"6Yc", OVNI_EV_JUMBO_SIG, "u32 typeid, str label", JUMBO(4)}, /* 6Yc+(u32 typeid, str label) */
	{"6t[", 0, NULL, ANY}, /* 6t[ */
	{"6t]", 0, NULL, ANY}, /* 6t] */
	{"DC[", 0, NULL, ANY}, /* DC[ */
	{"DC]", 0, NULL, ANY}, /* DC] */
	{"DI[", 0, NULL, ANY}, /* DI[ */
	{"DI]", 0, NULL, ANY}, /* DI] */
	{"DP[", 0, NULL, ANY}, /* DP[ */
	{"DP]", 0, NULL, ANY}, /* DP] */
	{"DR[", 0, NULL, ANY}, /* DR[ */
	{"DR]", 0, NULL, ANY}, /* DR] */
	{"DS[", 0, NULL, ANY}, /* DS[ */
	{"DS]", 0, NULL, ANY}, /* DS] */
	{"DT[", 0, NULL, ANY}, /* DT[ */
	{"DT]", 0, NULL, ANY}, /* DT] */
	{"DU[", 0, NULL, ANY}, /* DU[ */
	{"DU]", 0, NULL, ANY}, /* DU] */
	{"DW[", 0, NULL, ANY}, /* DW[ */
	{"DW]", 0, NULL, ANY}, /* DW] */
	{"KCI", 0, NULL, ANY}, /* KCI */
	{"KCO", 0, NULL, ANY}, /* KCO */
	{"MAA", 0, NULL, ANY}, /* MAA */
	{"MAG", 0, NULL, ANY}, /* MAG */
	{"MAR", 0, NULL, ANY}, /* MAR */
	{"MAa", 0, NULL, ANY}, /* MAa */
	{"MAg", 0, NULL, ANY}, /* MAg */
	{"MAr", 0, NULL, ANY}, /* MAr */
	{"MCB", 0, NULL, ANY}, /* MCB */
	{"MCE", 0, NULL, ANY}, /* MCE */
	{"MCS", 0, NULL, ANY}, /* MCS */
	{"MCb", 0, NULL, ANY}, /* MCb */
	{"MCe", 0, NULL, ANY}, /* MCe */
	{"MCs", 0, NULL, ANY}, /* MCs */
	{"MDB", 0, NULL, ANY}, /* MDB */
	{"MDG", 0, NULL, ANY}, /* MDG */
	{"MDS", 0, NULL, ANY}, /* MDS */
	{"MDb", 0, NULL, ANY}, /* MDb */
	{"MDg", 0, NULL, ANY}, /* MDg */
	{"MDs", 0, NULL, ANY}, /* MDs */
	{"MEB", 0, NULL, ANY}, /* MEB */
	{"MES", 0, NULL, ANY}, /* MES */
	{"ME[", 0, NULL, ANY}, /* ME[ */
	{"ME]", 0, NULL, ANY}, /* ME] */
	{"MEb", 0, NULL, ANY}, /* MEb */
	{"MEs", 0, NULL, ANY}, /* MEs */
	{"MRO", 0, NULL, ANY}, /* MRO */
	{"MRS", 0, NULL, ANY}, /* MRS */
	{"MR[", 0, NULL, ANY}, /* MR[ */
	{"MR]", 0, NULL, ANY}, /* MR] */
	{"MRo", 0, NULL, ANY}, /* MRo */
	{"MRs", 0, NULL, ANY}, /* MRs */
	{"MSB", 0, NULL, ANY}, /* MSB */
	{"MSR", 0, NULL, ANY}, /* MSR */
	{"MSS", 0, NULL, ANY}, /* MSS */
	{"MS[", 0, NULL, ANY}, /* MS[ */
	{"MS]", 0, NULL, ANY}, /* MS] */
	{"MSb", 0, NULL, ANY}, /* MSb */
	{"MSr", 0, NULL, ANY}, /* MSr */
	{"MSs", 0, NULL, ANY}, /* MSs */
	{"MTA", 0, NULL, ANY}, /* MTA */
	{"MTS", 0, NULL, ANY}, /* MTS */
	{"MTY", 0, NULL, ANY}, /* MTY */
	{"MT[", 0, NULL, ANY}, /* MT[ */
	{"MT]", 0, NULL, ANY}, /* MT] */
	{"MTa", 0, NULL, ANY}, /* MTa */
	{"MTs", 0, NULL, ANY}, /* MTs */
	{"MTy", 0, NULL, ANY}, /* MTy */
	{"MUF", 0, NULL, ANY}, /* MUF */
	{"MUI", 0, NULL, ANY}, /* MUI */
	{"MUT", 0, NULL, ANY}, /* MUT */
	{"MUf", 0, NULL, ANY}, /* MUf */
	{"MUi", 0, NULL, ANY}, /* MUi */
	{"MUt", 0, NULL, ANY}, /* MUt */
	{"MWA", 0, NULL, ANY}, /* MWA */
	{"MWS", 0, NULL, ANY}, /* MWS */
	{"MWY", 0, NULL, ANY}, /* MWY */
	{"MW[", 0, NULL, ANY}, /* MW[ */
	{"MW]", 0, NULL, ANY}, /* MW] */
	{"MWa", 0, NULL, ANY}, /* MWa */
	{"MWs", 0, NULL, ANY}, /* MWs */
	{"MWy", 0, NULL, ANY}, /* MWy */
	{"MaA", 0, NULL, ANY}, /* MaA */
	{"MaG", 0, NULL, ANY}, /* MaG */
	{"MaR", 0, NULL, ANY}, /* MaR */
	{"Maa", 0, NULL, ANY}, /* Maa */
	{"Mag", 0, NULL, ANY}, /* Mag */
	{"Mar", 0, NULL, ANY}, /* Mar */
	{"McB", 0, NULL, ANY}, /* McB */
	{"McE", 0, NULL, ANY}, /* McE */
	{"McS", 0, NULL, ANY}, /* McS */
	{"Mcb", 0, NULL, ANY}, /* Mcb */
	{"Mce", 0, NULL, ANY}, /* Mce */
	{"Mcs", 0, NULL, ANY}, /* Mcs */
	{"MdB", 0, NULL, ANY}, /* MdB */
	{"MdG", 0, NULL, ANY}, /* MdG */
	{"MdS", 0, NULL, ANY}, /* MdS */
	{"Mdb", 0, NULL, ANY}, /* Mdb */
	{"Mdg", 0, NULL, ANY}, /* Mdg */
	{"Mds", 0, NULL, ANY}, /* Mds */
	{"MeB", 0, NULL, ANY}, /* MeB */
	{"MeS", 0, NULL, ANY}, /* MeS */
	{"Me[", 0, NULL, ANY}, /* Me[ */
	{"Me]", 0, NULL, ANY}, /* Me] */
	{"Meb", 0, NULL, ANY}, /* Meb */
	{"Mes", 0, NULL, ANY}, /* Mes */
	{"MrO", 0, NULL, ANY}, /* MrO */
	{"MrS", 0, NULL, ANY}, /* MrS */
	{"Mr[", 0, NULL, ANY}, /* Mr[ */
	{"Mr]", 0, NULL, ANY}, /* Mr] */
	{"Mro", 0, NULL, ANY}, /* Mro */
	{"Mrs", 0, NULL, ANY}, /* Mrs */
	{"MsB", 0, NULL, ANY}, /* MsB */
	{"MsR", 0, NULL, ANY}, /* MsR */
	{"MsS", 0, NULL, ANY}, /* MsS */
	{"Ms[", 0, NULL, ANY}, /* Ms[ */
	{"Ms]", 0, NULL, ANY}, /* Ms] */
	{"Msb", 0, NULL, ANY}, /* Msb */
	{"Msr", 0, NULL, ANY}, /* Msr */
	{"Mss", 0, NULL, ANY}, /* Mss */
	{"OAr", 8, "i32 cpu, i32 tid", EXACT(8)}, /* OAr(i32 cpu, i32 tid) */
	{"OAs", 4, "i32 cpu", EXACT(4)}, /* OAs(i32 cpu) */
	{"OB.", 0, NULL, ANY}, /* OB. */
	/* OCn: "ignoring old event OCn", whatever it carries; nOS-V 4.1 writes
	 * it with 8 bytes (i32 count, i32 maxcpu) */
	{"OCn", 4, "i32 cpu", ANY}, /* OCn(i32 cpu) */
	{"OF[", 0, NULL, ANY}, /* OF[ */
	{"OF]", 0, NULL, ANY}, /* OF] */
	{"OHC", 12, "i32 cpu, u64 tag", ANY}, /* OHC(i32 cpu, u64 tag): read by a debug message only */
	{"OHc", 0, NULL, ANY}, /* OHc */
	{"OHe", 0, NULL, ANY}, /* OHe */
	{"OHp", 0, NULL, ANY}, /* OHp */
	{"OHr", 0, NULL, ANY}, /* OHr */
	{"OHw", 0, NULL, ANY}, /* OHw */
	{"OHx", 16, "i32 cpu, i32 tid, u64 tag", MIN(4)}, /* OHx(i32 cpu, i32 tid, u64 tag) */
	{"OM=", 12, "i64 value, i32 type", EXACT(12)}, /* OM=(i64 value, i32 type) */
	{"OM[", 12, "i64 value, i32 type", EXACT(12)}, /* OM[(i64 value, i32 type) */
	{"OM]", 12, "i64 value, i32 type", EXACT(12)}, /* OM](i64 value, i32 type) */
	{"OU[", 0, NULL, ANY}, /* OU[ */
	{"OU]", 0, NULL, ANY}, /* OU] */
	{"PA[", 0, NULL, ANY}, /* PA[ */
	{"PA]", 0, NULL, ANY}, /* PA] */
	{"PBB", 0, NULL, ANY}, /* PBB */
	{"PBF", 0, NULL, ANY}, /* PBF */
	{"PBJ", 0, NULL, ANY}, /* PBJ */
	{"PBS", 0, NULL, ANY}, /* PBS */
	{"PBT", 0, NULL, ANY}, /* PBT */
	{"PBb", 0, NULL, ANY}, /* PBb */
	{"PBf", 0, NULL, ANY}, /* PBf */
	{"PBj", 0, NULL, ANY}, /* PBj */
	{"PBs", 0, NULL, ANY}, /* PBs */
	{"PBt", 0, NULL, ANY}, /* PBt */
	{"PCF", 0, NULL, ANY}, /* PCF */
	{"PCI", 0, NULL, ANY}, /* PCI */
	{"PCf", 0, NULL, ANY}, /* PCf */
	{"PCi", 0, NULL, ANY}, /* PCi */
	{"PH[", 0, NULL, ANY}, /* PH[ */
	{"PH]", 0, NULL, ANY}, /* PH] */
	{"PIA", 0, NULL, ANY}, /* PIA */
	{"PIR", 0, NULL, ANY}, /* PIR */
	{"PI[", 0, NULL, ANY}, /* PI[ */
	{"PI]", 0, NULL, ANY}, /* PI] */
	{"PIa", 0, NULL, ANY}, /* PIa */
	{"PIr", 0, NULL, ANY}, /* PIr */
	{"PMI", 0, NULL, ANY}, /* PMI */
	{"PMU", 0, NULL, ANY}, /* PMU */
	{"PMi", 0, NULL, ANY}, /* PMi */
	{"PMu", 0, NULL, ANY}, /* PMu */
	{"POc", OVNI_EV_JUMBO_SIG, "u32 typeid, str label", JUMBO(4)}, /* POc+(u32 typeid, str label) */
	{"PPc", 8, "u32 taskid, u32 typeid", EXACT(8)}, /* PPc(u32 taskid, u32 typeid) */
	{"PPe", 4, "u32 taskid", MIN(4)}, /* PPe(u32 taskid) */
	{"PPx", 4, "u32 taskid", MIN(4)}, /* PPx(u32 taskid) */
	{"PQe", 4, "u32 typeid", MIN(4)}, /* PQe(u32 typeid) */
	{"PQx", 4, "u32 typeid", MIN(4)}, /* PQx(u32 typeid) */
	{"PTA", 0, NULL, ANY}, /* PTA */
	{"PTC", 0, NULL, ANY}, /* PTC */
	{"PTD", 0, NULL, ANY}, /* PTD */
	{"PTG", 0, NULL, ANY}, /* PTG */
	{"PTI", 0, NULL, ANY}, /* PTI */
	{"PTR", 0, NULL, ANY}, /* PTR */
	{"PTS", 0, NULL, ANY}, /* PTS */
	{"PTT", 0, NULL, ANY}, /* PTT */
	{"PTW", 0, NULL, ANY}, /* PTW */
	{"PTY", 0, NULL, ANY}, /* PTY */
	{"PT[", 0, NULL, ANY}, /* PT[ */
	{"PT]", 0, NULL, ANY}, /* PT] */
	{"PTa", 0, NULL, ANY}, /* PTa */
	{"PTc", 0, NULL, ANY}, /* PTc */
	{"PTd", 0, NULL, ANY}, /* PTd */
	{"PTg", 0, NULL, ANY}, /* PTg */
	{"PTi", 0, NULL, ANY}, /* PTi */
	{"PTr", 0, NULL, ANY}, /* PTr */
	{"PTs", 0, NULL, ANY}, /* PTs */
	{"PTt", 0, NULL, ANY}, /* PTt */
	{"PTw", 0, NULL, ANY}, /* PTw */
	{"PTy", 0, NULL, ANY}, /* PTy */
	{"PWC", 0, NULL, ANY}, /* PWC */
	{"PWD", 0, NULL, ANY}, /* PWD */
	{"PWE", 0, NULL, ANY}, /* PWE */
	{"PWI", 0, NULL, ANY}, /* PWI */
	{"PWS", 0, NULL, ANY}, /* PWS */
	{"PWY", 0, NULL, ANY}, /* PWY */
	{"PWc", 0, NULL, ANY}, /* PWc */
	{"PWd", 0, NULL, ANY}, /* PWd */
	{"PWe", 0, NULL, ANY}, /* PWe */
	{"PWi", 0, NULL, ANY}, /* PWi */
	{"PWs", 0, NULL, ANY}, /* PWs */
	{"PWy", 0, NULL, ANY}, /* PWy */
	{"TCI", 0, NULL, ANY}, /* TCI */
	{"TCi", 0, NULL, ANY}, /* TCi */
	{"TGC", 0, NULL, ANY}, /* TGC */
	{"TGc", 0, NULL, ANY}, /* TGc */
	{"TLI", 0, NULL, ANY}, /* TLI */
	{"TLP", 0, NULL, ANY}, /* TLP */
	{"TLi", 0, NULL, ANY}, /* TLi */
	{"TLp", 0, NULL, ANY}, /* TLp */
	{"TQA", 0, NULL, ANY}, /* TQA */
	{"TQT", 0, NULL, ANY}, /* TQT */
	{"TQa", 0, NULL, ANY}, /* TQa */
	{"TQt", 0, NULL, ANY}, /* TQt */
	{"TRA", 0, NULL, ANY}, /* TRA */
	{"TRC", 0, NULL, ANY}, /* TRC */
	{"TRS", 0, NULL, ANY}, /* TRS */
	{"TRT", 0, NULL, ANY}, /* TRT */
	{"TRa", 0, NULL, ANY}, /* TRa */
	{"TRc", 0, NULL, ANY}, /* TRc */
	{"TRs", 0, NULL, ANY}, /* TRs */
	{"TRt", 0, NULL, ANY}, /* TRt */
	{"TTC", 0, NULL, ANY}, /* TTC */
	{"TTW", 0, NULL, ANY}, /* TTW */
	{"TTc", 0, NULL, ANY}, /* TTc */
	{"TTw", 0, NULL, ANY}, /* TTw */
	{"VAA", 0, NULL, ANY}, /* VAA */
	{"VAB", 0, NULL, ANY}, /* VAB */
	{"VAC", 0, NULL, ANY}, /* VAC */
	{"VAD", 0, NULL, ANY}, /* VAD */
	{"VAE", 0, NULL, ANY}, /* VAE */
	{"VAG", 0, NULL, ANY}, /* VAG */
	{"VAI", 0, NULL, ANY}, /* VAI */
	{"VAJ", 0, NULL, ANY}, /* VAJ */
	{"VAK", 0, NULL, ANY}, /* VAK */
	{"VAL", 0, NULL, ANY}, /* VAL */
	{"VAM", 0, NULL, ANY}, /* VAM */
	{"VAN", 0, NULL, ANY}, /* VAN */
	{"VAO", 0, NULL, ANY}, /* VAO */
	{"VAP", 0, NULL, ANY}, /* VAP */
	{"VAR", 0, NULL, ANY}, /* VAR */
	{"VAS", 0, NULL, ANY}, /* VAS */
	{"VAT", 0, NULL, ANY}, /* VAT */
	{"VAU", 0, NULL, ANY}, /* VAU */
	{"VAW", 0, NULL, ANY}, /* VAW */
	{"VAY", 0, NULL, ANY}, /* VAY */
	{"VAa", 0, NULL, ANY}, /* VAa */
	{"VAb", 0, NULL, ANY}, /* VAb */
	{"VAc", 0, NULL, ANY}, /* VAc */
	{"VAd", 0, NULL, ANY}, /* VAd */
	{"VAe", 0, NULL, ANY}, /* VAe */
	{"VAg", 0, NULL, ANY}, /* VAg */
	{"VAi", 0, NULL, ANY}, /* VAi */
	{"VAj", 0, NULL, ANY}, /* VAj */
	{"VAk", 0, NULL, ANY}, /* VAk */
	{"VAl", 0, NULL, ANY}, /* VAl */
	{"VAm", 0, NULL, ANY}, /* VAm */
	{"VAn", 0, NULL, ANY}, /* VAn */
	{"VAo", 0, NULL, ANY}, /* VAo */
	{"VAp", 0, NULL, ANY}, /* VAp */
	{"VAr", 0, NULL, ANY}, /* VAr */
	{"VAs", 0, NULL, ANY}, /* VAs */
	{"VAt", 0, NULL, ANY}, /* VAt */
	{"VAu", 0, NULL, ANY}, /* VAu */
	{"VAw", 0, NULL, ANY}, /* VAw */
	{"VAy", 0, NULL, ANY}, /* VAy */
	{"VHA", 0, NULL, ANY}, /* VHA */
	{"VHD", 0, NULL, ANY}, /* VHD */
	{"VHW", 0, NULL, ANY}, /* VHW */
	{"VHa", 0, NULL, ANY}, /* VHa */
	{"VHd", 0, NULL, ANY}, /* VHd */
	{"VHw", 0, NULL, ANY}, /* VHw */
	{"VMA", 0, NULL, ANY}, /* VMA */
	{"VMF", 0, NULL, ANY}, /* VMF */
	{"VMa", 0, NULL, ANY}, /* VMa */
	{"VMf", 0, NULL, ANY}, /* VMf */
	{"VPa", 0, NULL, ANY}, /* VPa */
	{"VPp", 0, NULL, ANY}, /* VPp */
	{"VPr", 0, NULL, ANY}, /* VPr */
	{"VS@", 0, NULL, ANY}, /* VS@ */
	{"VSN", 0, NULL, ANY}, /* VSN */
	{"VS[", 0, NULL, ANY}, /* VS[ */
	{"VS]", 0, NULL, ANY}, /* VS] */
	{"VSf", 0, NULL, ANY}, /* VSf */
	{"VSh", 0, NULL, ANY}, /* VSh */
	{"VSn", 0, NULL, ANY}, /* VSn */
	{"VSr", 0, NULL, ANY}, /* VSr */
	{"VSs", 0, NULL, ANY}, /* VSs */
	{"VTC", 8, "u32 taskid, u32 typeid", MIN(8)}, /* VTC(u32 taskid, u32 typeid) */
	{"VTc", 8, "u32 taskid, u32 typeid", MIN(8)}, /* VTc(u32 taskid, u32 typeid) */
	{"VTe", 8, "u32 taskid, u32 bodyid", MIN(8)}, /* VTe(u32 taskid, u32 bodyid) */
	{"VTp", 8, "u32 taskid, u32 bodyid", MIN(8)}, /* VTp(u32 taskid, u32 bodyid) */
	{"VTr", 8, "u32 taskid, u32 bodyid", MIN(8)}, /* VTr(u32 taskid, u32 bodyid) */
	{"VTx", 8, "u32 taskid, u32 bodyid", MIN(8)}, /* VTx(u32 taskid, u32 bodyid) */
	{"VU[", 0, NULL, ANY}, /* VU[ */
	{"VU]", 0, NULL, ANY}, /* VU] */
	{"VWC", OVNI_EV_JUMBO_SIG, "i64 value", JUMBO(0)}, /* VWC+(i64 value) */
	{"VYc", OVNI_EV_JUMBO_SIG, "u32 typeid, str label", JUMBO(4)}, /* VYc+(u32 typeid, str label) */
};

const ovni_evspec *ovni_event_find(const uint8_t mcv[3])
{
	size_t lo = 0, hi = sizeof table / sizeof table[0];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = memcmp(mcv, table[mid].mcv, 3);
		if (c == 0) return &table[mid];
		if (c < 0) hi = mid;
		else lo = mid + 1;
	}
	return NULL;
}

#undef ANY
#undef MIN
#undef EXACT
#undef JUMBO

ovni_payload_verdict ovni_payload_judge(const ovni_evspec *s, bool jumbo, uint64_t bytes)
{
	/* the size the handler sees: a jumbo event's u32 size counts as payload */
	uint64_t seen = jumbo ? 4 + bytes : bytes;
	switch (s->emu) {
	case OVNI_EMU_MIN:
		if (seen < s->emu_size) return OVNI_PAYLOAD_REFUSED;
		return jumbo ? OVNI_PAYLOAD_MISREAD : OVNI_PAYLOAD_OK;
	case OVNI_EMU_EXACT:
		if (seen != s->emu_size) return OVNI_PAYLOAD_REFUSED;
		return jumbo ? OVNI_PAYLOAD_MISREAD : OVNI_PAYLOAD_OK;
	case OVNI_EMU_JUMBO: return jumbo ? OVNI_PAYLOAD_OK : OVNI_PAYLOAD_REFUSED;
	default: return OVNI_PAYLOAD_OK;
	}
}

void ovni_payload_need(const ovni_evspec *s, char *out, size_t n)
{
	if (!n) return;
	if (s->emu == OVNI_EMU_JUMBO || s->emu == OVNI_EMU_ANY) {
		snprintf(out, n, "%s", s->emu == OVNI_EMU_JUMBO ? "a jumbo event" : "any payload");
		return;
	}
	/* the arguments the handler reads: those within its emu_size bytes */
	char args[96] = "";
	size_t len = 0;
	unsigned at = 0;
	const char *cur = s->args;
	ovni_arg a;
	while (at < s->emu_size && ovni_arg_next(&cur, &a) && len < sizeof args) {
		int k = snprintf(args + len, sizeof args - len, "%s%s%u %s", len ? ", " : "", a.is_signed ? "i" : "u",
				 a.size * 8, a.name);
		if (k < 0) break;
		len += (size_t)k;
		at += a.size ? a.size : s->emu_size;
	}
	snprintf(out, n, "%s %u bytes (%s)", s->emu == OVNI_EMU_MIN ? "at least" : "exactly", (unsigned)s->emu_size, args);
}

size_t ovni_event_count(void) { return sizeof table / sizeof table[0]; }

const ovni_evspec *ovni_event_at(size_t i) { return i < ovni_event_count() ? &table[i] : NULL; }

/* Model letters in the emulator's probing order. */
const ovni_model ovni_models[OVNI_NMODELS] = {
	{'6', "nanos6", 1, 1, 0}, {'D', "nodes", 1, 0, 0},  {'K', "kernel", 1, 0, 0}, {'M', "mpi", 1, 0, 0},
	{'O', "ovni", 1, 1, 0},   {'P', "openmp", 1, 2, 1}, {'T', "tampi", 1, 0, 0},  {'V', "nosv", 2, 7, 0},
};

int ovni_model_by_letter(uint8_t c)
{
	/* Called for every event: a switch, not a scan. Same order as ovni_models. */
	switch (c) {
	case '6': return 0;
	case 'D': return 1;
	case 'K': return 2;
	case 'M': return 3;
	case 'O': return 4;
	case 'P': return 5;
	case 'T': return 6;
	case 'V': return 7;
	default: return -1;
	}
}

int ovni_model_by_name(const char *name)
{
	for (int i = 0; i < OVNI_NMODELS; i++)
		if (strcmp(ovni_models[i].name, name) == 0) return i;
	return -1;
}

bool ovni_arg_next(const char **cur, ovni_arg *a)
{
	const char *p = *cur;
	if (!p) return false;
	while (*p == ',' || *p == ' ') p++;
	if (!*p) return false;
	const char *sp = strchr(p, ' ');
	if (!sp) return false;
	size_t tl = (size_t)(sp - p);
	a->is_signed = p[0] == 'i';
	a->size = tl == 3 && strncmp(p, "str", 3) == 0 ? 0 : tl == 3 && p[1] == '6' ? 8 : 4;
	p = sp + 1;
	size_t nl = strcspn(p, ",");
	if (nl >= sizeof a->name) nl = sizeof a->name - 1;
	memcpy(a->name, p, nl);
	a->name[nl] = '\0';
	*cur = p + strcspn(p, ",");
	return true;
}
