/* suite hostile: filled in by its workstream (see git log). */
#include "readbench.h"
#include "rbtest.h"

void suite_hostile(void)
{
}
